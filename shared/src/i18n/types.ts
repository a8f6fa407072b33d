/** A language's catalogue of one area: the same keys as the English one, every text translated. */
export type Catalogue<T> = { readonly [K in keyof T]: string };

/** The four catalogues of one area. */
export interface AreaMessages<T> {
  en: T;
  es: Catalogue<T>;
  fr: Catalogue<T>;
  de: Catalogue<T>;
}
