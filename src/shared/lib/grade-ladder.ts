/**
 * Promoting a school year (升年级) at the end of the school year: the grade named in the school year's
 * name (初一 -> 初二, 七年级 -> 八年级, 高二 -> 高三, 五年级 -> 六年级) and in its classes' names moves one
 * up; the last grade of a ladder graduates (毕业: archived with its history). Shared by the server,
 * which does it, and the confirm dialog, which says what will happen.
 */
const LADDERS: readonly (readonly string[])[] = [
  ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级'],
  ['七年级', '八年级', '九年级'],
  ['初一', '初二', '初三'],
  ['高一', '高二', '高三'],
];

export type Promotion = {
  /** The grade in the name now, e.g. 初一. */
  from: string;
  /** The next grade, or null: the school year graduates. */
  to: string | null;
};

/** The promotion a school year's name allows, or null when it names no grade. */
export function promotionOf(schoolYearName: string): Promotion | null {
  for (const ladder of LADDERS) {
    const index = ladder.findIndex((grade) => schoolYearName.includes(grade));
    if (index >= 0) return { from: ladder[index]!, to: ladder[index + 1] ?? null };
  }
  return null;
}

/** A name with the grade moved up (names without the grade stay as they are). */
export function promotedName(name: string, promotion: Promotion): string {
  return promotion.to === null ? name : name.split(promotion.from).join(promotion.to);
}

export const PROMOTION_MESSAGES = {
  noGrade: '学年名称中没有年级（如 初一、七年级、高一、五年级），无法升级，请先重命名学年',
} as const;
