/** A progress bar with its percentage. */
export function Bar({ value, label }: { value: number; label?: string }) {
  return (
    <span
      className="tr-bar"
      role="progressbar"
      aria-valuenow={value}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={label}
    >
      <span style={{ width: `${Math.min(100, Math.max(0, value))}%` }} />
      <em>{value}%</em>
    </span>
  );
}
