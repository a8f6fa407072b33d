/** Number of pages of `count` rows at `limit` a page (at least 1, Part A conventions). */
export const pageCountOf = (count: number, limit: number) => Math.max(1, Math.ceil(count / limit));

/** Part A conventions: page 1-based; the `paginate` block of list responses. */
export function paginate(page: number, limit: number, count: number, current: number) {
  const pageCount = pageCountOf(count, limit);
  return { page, current, count, prevPage: page > 1, nextPage: page < pageCount, pageCount, limit };
}
