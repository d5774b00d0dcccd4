/** A URL slug: lower-case ASCII words joined by dashes, at most 100 characters. */
export function slugify(text: string, fallback = 'item'): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100)
      .replace(/-+$/, '') || fallback
  );
}
