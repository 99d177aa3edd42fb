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
