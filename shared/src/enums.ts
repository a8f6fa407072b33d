export const PLANS = ['free', 'premium', 'unlimited', 'club'] as const;
export type Plan = (typeof PLANS)[number];

export const TWO_FACTOR_MODES = ['OFF', 'EMAIL', 'TOTP'] as const;
export type TwoFactorMode = (typeof TWO_FACTOR_MODES)[number];

export const EMAIL_STATUSES = ['confirmed', 'unconfirmed', 'pending'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD-MM-YYYY', 'MM-DD-YYYY'] as const;
export const TIME_FORMATS = ['12', '24'] as const;
export const DURATION_FORMATS = ['decimal', 'time'] as const;
