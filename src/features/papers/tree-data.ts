/** Chapter and knowledge-point trees of the contract in the shape Semi's Tree and TreeSelect draw. */
import type { TreeNode } from '../../shared/contract/papers';

export type SemiTreeNode = { key: string; value: number; label: string; children?: SemiTreeNode[] };

export function toTreeData(nodes: readonly TreeNode[]): SemiTreeNode[] {
  return nodes.map((node) => ({
    key: String(node.id),
    value: node.id,
    label: node.name,
    ...(node.children.length > 0 ? { children: toTreeData(node.children) } : {}),
  }));
}

/** A tree as the options of a plain Select, in tree order, each labelled with its path (七年级上册 / 第一章 有理数). */
export function toPathOptions(nodes: readonly TreeNode[], prefix = ''): { value: number; label: string }[] {
  return nodes.flatMap((node) => {
    const label = prefix ? `${prefix} / ${node.name}` : node.name;
    return [{ value: node.id, label }, ...toPathOptions(node.children, label)];
  });
}
