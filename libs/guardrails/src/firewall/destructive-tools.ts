/**
 * Whether a tool needs human approval: its name equals a listed name (`exact`) or contains one
 * (`substring`, e.g. "delete" covers "delete_document"). Case-insensitive: tool names are
 * identifiers and "Delete" is as destructive as "delete".
 */
export function isDestructiveTool(name: string, destructive: readonly string[], match: 'exact' | 'substring'): boolean {
  const tool = name.toLowerCase();
  return destructive.some((entry) => {
    const d = entry.toLowerCase();
    return match === 'exact' ? tool === d : tool.includes(d);
  });
}
