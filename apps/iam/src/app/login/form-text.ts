/**
 * A form field as text. The urlencoded parser turns `a[]=x` or `a[b]=x` into arrays and objects;
 * the login pages only ever expect strings, so anything else counts as empty.
 */
export function formText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
