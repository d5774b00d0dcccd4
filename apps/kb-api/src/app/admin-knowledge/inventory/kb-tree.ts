import type { FolderCount, TreeDocument } from './inventory.repository';

export interface TreeFolder {
  name: string;
  path: string;
  document_count: number;
  chunk_count: number;
  folders: TreeFolder[];
  documents: Array<Omit<TreeDocument, 'project_key'>>;
}

export interface TreeProject extends Omit<TreeFolder, 'name' | 'path'> {
  project_key: string;
  name: string;
}

/**
 * Projects → folders (from each source path's directories) → documents. Counts come from the
 * complete per-folder aggregates rolled up to every ancestor, so they hold even when the listed
 * documents are cut at the limit.
 */
export function buildTree(projects: Array<{ project_key: string; name: string }>, counts: FolderCount[], documents: TreeDocument[]): TreeProject[] {
  const roots = new Map<string, TreeProject>();
  const folders = new Map<string, TreeFolder>();
  const rootOf = (key: string) => {
    let p = roots.get(key);
    if (!p) roots.set(key, (p = { project_key: key, name: key, document_count: 0, chunk_count: 0, folders: [], documents: [] }));
    return p;
  };
  for (const p of projects) rootOf(p.project_key).name = p.name;
  const folderOf = (project: string, path: string): TreeFolder | TreeProject => {
    if (path === '') return rootOf(project);
    const id = `${project}\0${path}`;
    let f = folders.get(id);
    if (!f) {
      const cut = path.lastIndexOf('/');
      f = { name: path.slice(cut + 1), path, document_count: 0, chunk_count: 0, folders: [], documents: [] };
      folders.set(id, f);
      folderOf(project, cut < 0 ? '' : path.slice(0, cut)).folders.push(f);
    }
    return f;
  };
  for (const c of counts) {
    // The counts of a folder belong to it and to each of its ancestors up to the project.
    let path = c.folder;
    for (;;) {
      const node = folderOf(c.project_key, path);
      node.document_count += c.documents;
      node.chunk_count += c.chunks;
      if (path === '') break;
      const cut = path.lastIndexOf('/');
      path = cut < 0 ? '' : path.slice(0, cut);
    }
  }
  for (const d of documents) {
    const cut = d.source_path.lastIndexOf('/');
    const { project_key, ...doc } = d;
    folderOf(project_key, cut < 0 ? '' : d.source_path.slice(0, cut)).documents.push(doc);
  }
  const sort = (node: TreeFolder | TreeProject) => {
    node.folders.sort((a, b) => a.name.localeCompare(b.name));
    node.folders.forEach(sort);
  };
  const out = [...roots.values()].sort((a, b) => a.project_key.localeCompare(b.project_key));
  out.forEach(sort);
  return out;
}
