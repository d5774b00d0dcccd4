import { buildTree } from './kb-tree';

describe('buildTree', () => {
  it('nests folders under their project and rolls counts up to every ancestor', () => {
    const tree = buildTree(
      [{ project_key: 'ops', name: 'Operations' }, { project_key: 'empty', name: 'Empty' }],
      [
        { project_key: 'ops', folder: '', documents: 1, chunks: 2 },
        { project_key: 'ops', folder: 'runbooks/db', documents: 2, chunks: 5 },
        { project_key: 'ops', folder: 'runbooks', documents: 1, chunks: 1 },
      ],
      [
        { id: 1, project_key: 'ops', source_path: 'readme.md', title: 'Readme', status: 'indexed', chunk_count: 2 },
        { id: 2, project_key: 'ops', source_path: 'runbooks/db/backup.md', title: 'Backup', status: 'indexed', chunk_count: 3 },
      ],
    );
    expect(tree.map((p) => [p.project_key, p.name, p.document_count])).toEqual([['empty', 'Empty', 0], ['ops', 'Operations', 4]]);
    const ops = tree[1];
    expect(ops.documents.map((d) => d.title)).toEqual(['Readme']);
    expect(ops.folders).toHaveLength(1);
    const runbooks = ops.folders[0];
    expect([runbooks.path, runbooks.document_count, runbooks.chunk_count]).toEqual(['runbooks', 3, 6]);
    expect([runbooks.folders[0].path, runbooks.folders[0].document_count, runbooks.folders[0].documents[0].title]).toEqual(['runbooks/db', 2, 'Backup']);
  });
});
