/**
 * Demo 题库, 数学: practice questions written from templates, so a personalised re-practice set
 * (举一反三) still finds similar questions a student has not seen after the demo semester has used
 * most of the hand-written bank. Each template is one kind of question on one knowledge point at one
 * difficulty, instantiated with a few number sets; the key and the analysis are computed from the same
 * numbers, so they are right by construction (and checked like every bank question by
 * tests/server/seed-data/question-bank.test.ts). They come after the hand-written questions, so the
 * demo semester, which takes questions in bank order, still draws from those first.
 */
import type { SeedQuestionDraft } from './question-bank.types';

type Chapter = (...tail: string[]) => string[];
type Draft = Omit<SeedQuestionDraft, 'key'>;

const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** Four options with the right one at `at` (0-3), the others in the order given. */
function choice(right: string, wrong: [string, string, string], at: number): { options: string[]; answer: string[] } {
  const options = [...wrong];
  options.splice(at % 4, 0, right);
  return { options, answer: [LETTERS[at % 4]!] };
}

const signed = (n: number) => (n < 0 ? `${n}` : `+${n}`);
const term = (n: number, v: string) => (n === 1 ? v : n === -1 ? `-${v}` : `${n}${v}`);

function templates(ch: Chapter): Draft[][] {
  return [
    // ── 正数和负数 ──
    [
      ['向东走', '向西走', '米'],
      ['存入', '取出', '元'],
      ['零上', '零下', '℃'],
      ['盈利', '亏损', '元'],
    ].map(([plus, minus, unit], i) => {
      const a = [20, 300, 6, 800][i]!;
      const b = [15, 120, 4, 250][i]!;
      return {
        chapter: ch('1.1 正数和负数'),
        knowledgePoints: ['正数和负数'],
        type: 'single',
        difficulty: 1,
        stem: `如果${plus} ${a} ${unit}记作 $+${a}$ ${unit}，那么${minus} ${b} ${unit}记作`,
        ...choice(`$-${b}$ ${unit}`, [`$+${b}$ ${unit}`, `$-${a}$ ${unit}`, `$+${a - b}$ ${unit}`], i + 1),
        analysis: `“${plus}”与“${minus}”是具有相反意义的量，${plus}记为正，${minus}就记为负，所以${minus} ${b} ${unit}记作 $-${b}$ ${unit}。`,
      };
    }),
    [
      [-3, 0, 2.5, -0.5, 7],
      [4, -1, 0, -2, -6],
      [-8, 1.2, -3, 0, 9],
      [0, -7, -1.5, 3, -4],
    ].map((nums) => {
      const negatives = nums.filter((n) => n < 0).length;
      return {
        chapter: ch('1.1 正数和负数'),
        knowledgePoints: ['正数和负数'],
        type: 'blank',
        difficulty: 2,
        stem: `在 ${nums.map((n) => `$${n}$`).join('，')} 中，负数有______个。`,
        answer: [`${negatives}`],
        analysis: `小于 0 的数是负数：${nums
          .filter((n) => n < 0)
          .map((n) => `$${n}$`)
          .join('，')}，共 ${negatives} 个；0 既不是正数也不是负数。`,
      };
    }),
    // ── 数轴、相反数、绝对值 ──
    [3, 5, 2.5, 7].map((a, i) => ({
      chapter: ch('1.2 数轴'),
      knowledgePoints: ['数轴', '绝对值'],
      type: 'single',
      difficulty: 1,
      stem: `数轴上到原点的距离等于 ${a} 的点所表示的数是`,
      ...choice(`$\\pm ${a}$`, [`$${a}$`, `$-${a}$`, `$${2 * a}$`], i),
      analysis: `到原点的距离是 ${a} 的点有两个，在原点两侧，分别表示 $${a}$ 和 $-${a}$，即 $|x|=${a}$，$x=\\pm ${a}$。`,
    })),
    [
      [4, -6],
      [-5, -2],
      [7, -3],
      [-9, -1],
    ].map(([a, b], i) => ({
      chapter: ch('1.3 相反数与绝对值'),
      knowledgePoints: ['相反数', '绝对值'],
      type: 'single',
      difficulty: 2,
      stem: `$${a}$ 的相反数与 $${b}$ 的绝对值的和是`,
      ...choice(`$${-a! + Math.abs(b!)}$`, [`$${a! + Math.abs(b!)}$`, `$${-a! + b!}$`, `$${a! + b!}$`], i + 2),
      analysis: `$${a}$ 的相反数是 $${-a!}$，$|${b}|=${Math.abs(b!)}$，所以和为 $${-a!}+${Math.abs(b!)}=${-a! + Math.abs(b!)}$。`,
    })),
    [
      [2, 5],
      [3, 8],
      [6, 1],
      [4, 9],
    ].map(([a, b]) => ({
      chapter: ch('1.3 相反数与绝对值'),
      knowledgePoints: ['相反数', '绝对值'],
      type: 'blank',
      difficulty: 3,
      stem: `若 $|x|=${a}$，$|y|=${b}$，且 $x>0>y$，则 $x+y=$______。`,
      answer: [`${a! - b!}`],
      analysis: `由 $|x|=${a}$ 且 $x>0$ 得 $x=${a}$；由 $|y|=${b}$ 且 $y<0$ 得 $y=-${b}$，所以 $x+y=${a}-${b}=${a! - b!}$。`,
    })),
    // ── 单项式与多项式 ──
    [
      [3, 2, 3],
      [5, 1, 4],
      [2, 3, 2],
      [7, 4, 1],
    ].map(([a, m, n], i) => ({
      chapter: ch('2.1 整式'),
      knowledgePoints: ['单项式', '多项式'],
      type: 'single',
      difficulty: 2,
      stem: `单项式 $-${a}x^{${m}}y^{${n}}$ 的系数和次数分别是`,
      ...choice(`$-${a}$，${m! + n!}`, [`$${a}$，${m! + n!}`, `$-${a}$，${m! + n! + 1}`, `$-${a}$，${Math.max(m!, n!)}`], i + 3),
      analysis: `单项式的系数是数字因数 $-${a}$（包括符号），次数是所有字母的指数和 ${m}+${n}=${m! + n!}。`,
    })),
    // ── 余角和补角 ──
    [35, 48, 62, 27].map((a, i) => ({
      chapter: ch('4.3 角'),
      knowledgePoints: ['余角和补角'],
      type: 'single',
      difficulty: 2,
      stem: `一个角是 $${a}^{\\circ}$，它的补角比它的余角大`,
      ...choice(`$90^{\\circ}$`, [`$${180 - a}^{\\circ}$`, `$${90 - a}^{\\circ}$`, `$${180 - 2 * a}^{\\circ}$`], i),
      analysis: `补角是 $180^{\\circ}-${a}^{\\circ}=${180 - a}^{\\circ}$，余角是 $90^{\\circ}-${a}^{\\circ}=${90 - a}^{\\circ}$，两者相差 $90^{\\circ}$（任何锐角都如此）。`,
    })),
    [
      [3, 45],
      [4, 60],
      [7, 75],
      [10, 80],
    ].map(([k, x]) => ({
      chapter: ch('4.3 角'),
      knowledgePoints: ['余角和补角'],
      type: 'blank',
      difficulty: 3,
      stem: `一个角的补角是它的余角的 ${k} 倍，这个角是______度。`,
      answer: [`${x}`],
      analysis: `设这个角为 $x^{\\circ}$，则 $180-x=${k}(90-x)$，解得 $x=${x}$。检验：补角 ${180 - x!}，余角 ${90 - x!}，${180 - x!}=${k}×${90 - x!}。`,
    })),
    // ── 实数：无理数 ──
    [2, 3, 5, 7].map((n, i) => ({
      chapter: ch('6.3 实数'),
      knowledgePoints: ['无理数'],
      type: 'single',
      difficulty: 2,
      stem: `下列各数中，是无理数的是（第 ${i + 1} 组）`,
      ...choice(`$\\sqrt{${n}}$`, [`$\\sqrt{${(i + 2) ** 2}}$`, `$\\frac{${n + 20}}{7}$`, `$0.${n}${n}$`], i + 1),
      analysis: `$\\sqrt{${(i + 2) ** 2}}=${i + 2}$ 是整数，$\\frac{${n + 20}}{7}$ 是分数，$0.${n}${n}$ 是有限小数，都是有理数；${n} 不是完全平方数，$\\sqrt{${n}}$ 是无限不循环小数，是无理数。`,
    })),
    // ── 平面直角坐标系 ──
    [
      [-3, 4],
      [2, -5],
      [-1, -6],
      [4, 3],
    ].map(([x, y], i) => {
      const quadrant = x! > 0 ? (y! > 0 ? '第一象限' : '第四象限') : y! > 0 ? '第二象限' : '第三象限';
      const others = ['第一象限', '第二象限', '第三象限', '第四象限'].filter((q) => q !== quadrant) as [string, string, string];
      return {
        chapter: ch('7.1 平面直角坐标系'),
        knowledgePoints: ['平面直角坐标系'],
        type: 'single',
        difficulty: 2,
        stem: `点 $P(${x},${y})$ 在`,
        ...choice(quadrant, others, i + 2),
        analysis: `横坐标 ${x! > 0 ? '为正' : '为负'}，纵坐标 ${y! > 0 ? '为正' : '为负'}，所以点 $P$ 在${quadrant}。`,
      };
    }),
    [
      [2, 3],
      [-4, 1],
      [5, -2],
      [-3, -6],
    ].map(([x, y]) => ({
      chapter: ch('7.1 平面直角坐标系'),
      knowledgePoints: ['平面直角坐标系'],
      type: 'blank',
      difficulty: 3,
      stem: `点 $M(${x},${y})$ 到 x 轴的距离是______，到 y 轴的距离是______。`,
      answer: [`${Math.abs(y!)}`, `${Math.abs(x!)}`],
      analysis: `点到 x 轴的距离是纵坐标的绝对值 $|${y}|=${Math.abs(y!)}$，到 y 轴的距离是横坐标的绝对值 $|${x}|=${Math.abs(x!)}$。`,
    })),
    // ── 不等式 ──
    [
      [2, 7],
      [-1, 4],
      [3, 9],
      [-3, 2],
    ].map(([a, b]) => ({
      chapter: ch('9.3 一元一次不等式组'),
      knowledgePoints: ['一元一次不等式组'],
      type: 'blank',
      difficulty: 3,
      stem: `不等式组 $x-${a! < 0 ? `(${a})` : a}>0$ 且 $x<${b}$ 的整数解共有______个。`,
      answer: [`${b! - a! - 1}`],
      analysis: `由 $x-${a! < 0 ? `(${a})` : a}>0$ 得 $x>${a}$，所以解集是 $${a}<x<${b}$，整数解为 ${Array.from({ length: b! - a! - 1 }, (_, k) => a! + 1 + k).join('，')}，共 ${b! - a! - 1} 个。`,
    })),
    [
      [50, 12, 7],
      [80, 20, 9],
      [100, 35, 6],
      [60, 15, 4],
    ].map(([m, book, pen]) => {
      const most = Math.floor((m! - book!) / pen!);
      return {
        chapter: ch('9.2 一元一次不等式'),
        knowledgePoints: ['一元一次不等式的应用'],
        type: 'blank',
        difficulty: 4,
        stem: `小明带了 ${m} 元，买了一本 ${book} 元的书后，用剩下的钱买单价 ${pen} 元的笔，他最多能买______支笔。`,
        answer: [`${most}`],
        analysis: `设买 $x$ 支笔，则 $${book}+${pen}x\\le ${m}$，解得 $x\\le \\frac{${m! - book!}}{${pen}}$，$x$ 取最大整数 ${most}。`,
      };
    }),
    // ── 全等三角形 ──
    [
      ['AB=DE', '∠B=∠E', 'BC=EF', '∠A=∠D', '∠C=∠F', 'AC=DF'],
      ['BC=EF', '∠C=∠F', 'AC=DF', '∠B=∠E', '∠A=∠D', 'AB=DE'],
      ['AC=DF', '∠A=∠D', 'AB=DE', '∠C=∠F', '∠B=∠E', 'BC=EF'],
      ['AB=DE', '∠A=∠D', 'AC=DF', '∠B=∠E', '∠C=∠F', 'BC=EF'],
    ].map(([side, angle, sas, asa, aas, ssa], i) => ({
      chapter: ch('12.2 三角形全等的判定'),
      knowledgePoints: ['全等三角形的判定'],
      type: 'single',
      difficulty: 3,
      stem: `在 △ABC 和 △DEF 中，已知 ${side}，${angle}，再添加下列条件，不能判定 △ABC≌△DEF 的是`,
      ...choice(ssa!, [sas!, asa!, aas!], i + 3),
      analysis: `添加 ${sas} 可用“SAS”，添加 ${asa} 可用“ASA”，添加 ${aas} 可用“AAS”；添加 ${ssa} 是两边及其中一边的对角分别相等（SSA），不能判定全等。`,
    })),
    [
      [
        '两边和其中一边的对角分别相等的两个三角形全等。',
        '错',
        '“SSA”不能判定全等，反例：一个锐角三角形和一个钝角三角形可以有两边和其中一边的对角分别相等。',
      ],
      [
        '两角和其中一角的对边分别相等的两个三角形全等。',
        '对',
        '这是“AAS”，由三角形内角和得第三个角也相等，可化为“ASA”，能判定全等。',
      ],
      ['三个角分别相等的两个三角形全等。', '错', '“AAA”不能判定全等：三个角相等的三角形形状相同，但大小可以不同。'],
      ['斜边和一条直角边分别相等的两个直角三角形全等。', '对', '这是直角三角形全等的判定“HL”。'],
    ].map(([stem, answer, analysis], i) => ({
      chapter: ch('12.2 三角形全等的判定'),
      knowledgePoints: ['全等三角形的判定'],
      type: 'judge',
      difficulty: i % 2 === 0 ? 3 : 2,
      stem: stem!,
      answer: [answer!],
      analysis: analysis!,
    })),
    [
      [50, 60, 'F'],
      [45, 75, 'F'],
      [80, 30, 'D'],
      [35, 95, 'E'],
    ].map(([a, b, asked], i) => {
      const c = 180 - (a as number) - (b as number);
      const value = asked === 'F' ? c : asked === 'D' ? (a as number) : (b as number);
      const name = asked === 'F' ? '∠F' : asked === 'D' ? '∠D' : '∠E';
      return {
        chapter: ch('12.1 全等三角形'),
        knowledgePoints: ['全等三角形的性质', '全等三角形的判定'],
        type: 'blank',
        difficulty: 3,
        stem: `已知 △ABC≌△DEF，∠A=$${a}^{\\circ}$，∠B=$${b}^{\\circ}$，则 ${name}=______度。（第 ${i + 1} 题）`,
        answer: [`${value}`],
        analysis: `全等三角形的对应角相等：∠D=∠A=$${a}^{\\circ}$，∠E=∠B=$${b}^{\\circ}$，∠F=∠C=$180^{\\circ}-${a}^{\\circ}-${b}^{\\circ}=${c}^{\\circ}$，所以 ${name}=${value}。`,
      };
    }),
    // ── 三角形的高、中线、角平分线 ──
    [
      [70, 50],
      [60, 40],
      [80, 36],
      [54, 66],
    ].map(([b, c], i) => {
      const half = (180 - b! - c!) / 2;
      return {
        chapter: ch('11.1 与三角形有关的线段'),
        knowledgePoints: ['三角形的高中线角平分线'],
        type: 'single',
        difficulty: 3,
        stem: `在 △ABC 中，∠B=$${b}^{\\circ}$，∠C=$${c}^{\\circ}$，AD 平分 ∠BAC 交 BC 于点 D，则 ∠BAD 的度数是`,
        ...choice(`$${half}^{\\circ}$`, [`$${2 * half}^{\\circ}$`, `$${90 - b!}^{\\circ}$`, `$${half + 10}^{\\circ}$`], i + 2),
        analysis: `∠BAC=$180^{\\circ}-${b}^{\\circ}-${c}^{\\circ}=${2 * half}^{\\circ}$，AD 是角平分线，∠BAD=$\\frac{1}{2}$∠BAC=$${half}^{\\circ}$。`,
      };
    }),
    [
      [70, 30],
      [64, 40],
      [76, 36],
      [58, 42],
    ].map(([b, c]) => ({
      chapter: ch('11.2 与三角形有关的角'),
      knowledgePoints: ['三角形的高中线角平分线', '三角形内角和'],
      type: 'blank',
      difficulty: 4,
      stem: `在 △ABC 中，∠B=$${b}^{\\circ}$，∠C=$${c}^{\\circ}$，AD⊥BC 于点 D，AE 平分 ∠BAC 交 BC 于点 E，则 ∠DAE=______度。`,
      answer: [`${(b! - c!) / 2}`],
      analysis: `∠BAC=$${180 - b! - c!}^{\\circ}$，∠BAE=$${(180 - b! - c!) / 2}^{\\circ}$；在 Rt△ABD 中 ∠BAD=$90^{\\circ}-${b}^{\\circ}=${90 - b!}^{\\circ}$，所以 ∠DAE=${(180 - b! - c!) / 2}-${90 - b!}=${(b! - c!) / 2}（即 $\\frac{1}{2}$(∠B-∠C)）。`,
    })),
    [
      [10, 'BD'],
      [14, 'CD'],
      [9, 'BD'],
      [13, 'CD'],
    ].map(([n, part], i) => ({
      chapter: ch('11.1 与三角形有关的线段'),
      knowledgePoints: ['三角形的高中线角平分线'],
      type: 'single',
      difficulty: 2,
      stem: `AD 是 △ABC 的中线，BC=${n}，则 ${part} 的长是`,
      ...choice(`${(n as number) / 2}`, [`${n}`, `${(n as number) * 2}`, `${(n as number) / 2 + 1}`], i),
      analysis: `三角形的中线把对边分成相等的两段，D 是 BC 的中点，${part}=$\\frac{1}{2}$BC=${(n as number) / 2}。`,
    })),
    // ── 乘法公式 ──
    [3, 4, 5, 7].map((a, i) => ({
      chapter: ch('14.2 乘法公式'),
      knowledgePoints: ['乘法公式'],
      type: 'single',
      difficulty: 3,
      stem: `计算 $(x+${a})^2$ 的结果是`,
      ...choice(`$x^2+${2 * a}x+${a * a}$`, [`$x^2+${a * a}$`, `$x^2+${a}x+${a * a}$`, `$x^2+${2 * a}x+${2 * a}$`], i + 1),
      analysis: `由完全平方公式 $(a+b)^2=a^2+2ab+b^2$，$(x+${a})^2=x^2+2\\cdot ${a}x+${a}^2=x^2+${2 * a}x+${a * a}$。`,
    })),
    [
      [2, 3],
      [3, 5],
      [5, 2],
      [4, 7],
    ].map(([p, q]) => ({
      chapter: ch('14.2 乘法公式'),
      knowledgePoints: ['乘法公式'],
      type: 'blank',
      difficulty: 4,
      stem: `计算：$(${p}x+${q}y)(${p}x-${q}y)=$______。`,
      answer: [`${p! * p!}x^2-${q! * q!}y^2`],
      analysis: `由平方差公式 $(a+b)(a-b)=a^2-b^2$，原式 $=(${p}x)^2-(${q}y)^2=${p! * p!}x^2-${q! * q!}y^2$。`,
    })),
    [
      [6, 36, '对'],
      [5, 25, '错'],
      [8, 64, '对'],
      [9, 81, '错'],
    ].map(([a, sq, right], i) => ({
      chapter: ch('14.2 乘法公式'),
      knowledgePoints: ['乘法公式'],
      type: 'judge',
      difficulty: 3,
      stem: right === '对' ? `$(x-${a})^2=x^2-${2 * (a as number)}x+${sq}$。` : `$(x+${a})^2=x^2+${sq}$。（第 ${i + 1} 题）`,
      answer: [right as string],
      analysis:
        right === '对'
          ? `完全平方公式：$(x-${a})^2=x^2-2\\cdot ${a}x+${a}^2=x^2-${2 * (a as number)}x+${sq}$，正确。`
          : `$(x+${a})^2=x^2+${2 * (a as number)}x+${sq}$，漏掉了中间项 $${2 * (a as number)}x$，所以错误。`,
    })),
    // ── 因式分解 ──
    [3, 4, 6, 9].map((a, i) => ({
      chapter: ch('14.3 因式分解'),
      knowledgePoints: ['因式分解'],
      type: 'single',
      difficulty: 3,
      stem: `分解因式 $x^2-${a * a}$ 的结果是`,
      ...choice(`$(x+${a})(x-${a})$`, [`$(x-${a})^2$`, `$(x+${a})^2$`, `$x(x-${a * a})$`], i + 2),
      analysis: `由平方差公式 $a^2-b^2=(a+b)(a-b)$，$x^2-${a * a}=x^2-${a}^2=(x+${a})(x-${a})$。`,
    })),
    [2, 3, 5, 7].map((a) => ({
      chapter: ch('14.3 因式分解'),
      knowledgePoints: ['因式分解'],
      type: 'blank',
      difficulty: 4,
      stem: `分解因式：$x^3-${a * a}x=$______。`,
      answer: [`x(x+${a})(x-${a})`],
      analysis: `先提公因式 $x$，再用平方差公式：$x^3-${a * a}x=x(x^2-${a * a})=x(x+${a})(x-${a})$。`,
    })),
    [2, 3, 4, 5].map((a) => ({
      chapter: ch('14.3 因式分解'),
      knowledgePoints: ['因式分解'],
      type: 'blank',
      difficulty: 5,
      stem: `分解因式：$${a}x^3-${4 * a}x^2+${4 * a}x=$______。`,
      answer: [`${a}x(x-2)^2`],
      analysis: `先提公因式 $${a}x$，再用完全平方公式：$${a}x^3-${4 * a}x^2+${4 * a}x=${a}x(x^2-4x+4)=${a}x(x-2)^2$。`,
    })),
    [
      [5, '对'],
      [7, '错'],
      [8, '对'],
      [10, '错'],
    ].map(([a, right]) => ({
      chapter: ch('14.3 因式分解'),
      knowledgePoints: ['因式分解'],
      type: 'judge',
      difficulty: 3,
      stem:
        right === '对'
          ? `$x^2+${2 * (a as number)}x+${(a as number) ** 2}=(x+${a})^2$。`
          : `$x^2-${(a as number) ** 2}=(x-${a})^2$。`,
      answer: [right as string],
      analysis:
        right === '对'
          ? `$x^2+${2 * (a as number)}x+${(a as number) ** 2}=x^2+2\\cdot ${a}x+${a}^2$，是完全平方式，等于 $(x+${a})^2$，正确。`
          : `$(x-${a})^2=x^2-${2 * (a as number)}x+${(a as number) ** 2}$，而 $x^2-${(a as number) ** 2}=(x+${a})(x-${a})$，所以错误。`,
    })),
    // ── 二次根式 ──
    [
      [12, 2, 3, '对'],
      [18, 2, 3, '错'],
      [50, 5, 2, '对'],
      [27, 9, 3, '错'],
    ].map(([n, k, m, right]) => ({
      chapter: ch('16.2 二次根式的乘除'),
      knowledgePoints: ['二次根式的化简'],
      type: 'judge',
      difficulty: 3,
      stem: `$\\sqrt{${n}}=${k}\\sqrt{${m}}$。`,
      answer: [right as string],
      analysis:
        right === '对'
          ? `$\\sqrt{${n}}=\\sqrt{${(k as number) ** 2}\\times ${m}}=${k}\\sqrt{${m}}$，正确。`
          : `$${k}\\sqrt{${m}}=\\sqrt{${(k as number) ** 2 * (m as number)}}\\ne\\sqrt{${n}}$，所以错误。`,
    })),
    [
      [20, 2, 5],
      [45, 3, 5],
      [75, 5, 3],
      [98, 7, 2],
    ].map(([n, k, m], i) => ({
      chapter: ch('16.2 二次根式的乘除'),
      knowledgePoints: ['二次根式的化简'],
      type: 'single',
      difficulty: 2,
      stem: `化简 $\\sqrt{${n}}$ 的结果是`,
      ...choice(
        `$${k}\\sqrt{${m}}$`,
        [`$${m}\\sqrt{${k}}$`, `$${(k as number) ** 2}\\sqrt{${m}}$`, `$${k}\\sqrt{${(m as number) + 1}}$`],
        i + 3,
      ),
      analysis: `$${n}=${(k as number) ** 2}\\times ${m}$，所以 $\\sqrt{${n}}=\\sqrt{${(k as number) ** 2}}\\times\\sqrt{${m}}=${k}\\sqrt{${m}}$。`,
    })),
    // ── 勾股定理的逆定理 ──
    [
      [5, 12, 13, '对'],
      [4, 5, 6, '错'],
      [8, 15, 17, '对'],
      [6, 7, 9, '错'],
    ].map(([a, b, c, right]) => ({
      chapter: ch('17.2 勾股定理的逆定理'),
      knowledgePoints: ['勾股定理的逆定理'],
      type: 'judge',
      difficulty: 2,
      stem: `以 ${a}，${b}，${c} 为边长的三角形是直角三角形。`,
      answer: [right as string],
      analysis: `$${a}^2+${b}^2=${(a as number) ** 2 + (b as number) ** 2}$，$${c}^2=${(c as number) ** 2}$，${right === '对' ? '两者相等，由勾股定理的逆定理，是直角三角形' : '两者不相等，不是直角三角形'}。`,
    })),
    [
      [
        [7, 24, 25],
        [2, 3, 4],
        [5, 6, 7],
        [3, 5, 7],
      ],
      [
        [9, 40, 41],
        [4, 6, 8],
        [6, 8, 9],
        [5, 7, 8],
      ],
      [
        [20, 21, 29],
        [3, 4, 6],
        [7, 8, 10],
        [4, 7, 9],
      ],
      [
        [12, 16, 20],
        [5, 11, 13],
        [6, 9, 11],
        [2, 4, 5],
      ],
    ].map((groups, i) => {
      const text = groups.map((g) => g.join('，'));
      const [r0, r1, r2] = groups[0]!;
      return {
        chapter: ch('17.2 勾股定理的逆定理'),
        knowledgePoints: ['勾股定理的逆定理'],
        type: 'single' as const,
        difficulty: 2 as const,
        stem: `下列各组数中，能作为直角三角形三边长的是（第 ${i + 1} 组）`,
        ...choice(text[0]!, [text[1]!, text[2]!, text[3]!], i),
        analysis: `只有 $${r0}^2+${r1}^2=${r0! ** 2 + r1! ** 2}=${r2}^2$ 满足两较短边的平方和等于最长边的平方；其余各组都不满足。`,
      };
    }),
    // ── 一次函数 ──
    [
      [2, 3],
      [-3, 1],
      [4, -2],
      [-1, -5],
    ].map(([k, b]) => ({
      chapter: ch('19.2 一次函数'),
      knowledgePoints: ['一次函数的图象和性质'],
      type: 'blank',
      difficulty: 2,
      stem: `一次函数 $y=${term(k!, 'x')}${signed(b!)}$ 的图象与 y 轴的交点坐标是______，y 随 x 的增大而______。`,
      answer: [`(0,${b})`, k! > 0 ? '增大' : '减小'],
      analysis: `令 $x=0$ 得 $y=${b}$，交点为 $(0,${b})$；$k=${k}${k! > 0 ? '>0' : '<0'}$，所以 y 随 x 的增大而${k! > 0 ? '增大' : '减小'}。`,
    })),
    [
      [2, -3],
      [-2, 5],
      [3, 4],
      [-1, -2],
    ].map(([k, b], i) => {
      const quadrants = k! > 0 ? (b! > 0 ? '一、二、三' : '一、三、四') : b! > 0 ? '一、二、四' : '二、三、四';
      const missing = { '一、二、三': '第四象限', '一、三、四': '第二象限', '一、二、四': '第三象限', '二、三、四': '第一象限' }[
        quadrants
      ]!;
      const others = ['第一象限', '第二象限', '第三象限', '第四象限'].filter((q) => q !== missing) as [string, string, string];
      return {
        chapter: ch('19.2 一次函数'),
        knowledgePoints: ['一次函数的图象和性质'],
        type: 'single' as const,
        difficulty: 2 as const,
        stem: `一次函数 $y=${term(k!, 'x')}${signed(b!)}$ 的图象不经过`,
        ...choice(missing, others, i + 1),
        analysis: `$k=${k}$ ${k! > 0 ? '>0，图象从左到右上升' : '<0，图象从左到右下降'}；$b=${b}$ ${b! > 0 ? '>0，与 y 轴交于正半轴' : '<0，与 y 轴交于负半轴'}，所以图象经过第${quadrants}象限，不经过${missing}。`,
      };
    }),
    // ── 一元二次方程 ──
    [
      [5, 3],
      [2, 7],
      [6, 1],
      [4, 9],
    ].map(([a, b], i) => ({
      chapter: ch('21.1 一元二次方程'),
      knowledgePoints: ['一元二次方程的概念'],
      type: 'single',
      difficulty: 1,
      stem: `把方程 $x^2-${a}x=${b}$ 化成一般形式后，一次项系数和常数项分别是`,
      ...choice(`$-${a}$，$-${b}$`, [`$${a}$，$${b}$`, `$-${a}$，$${b}$`, `$${a}$，$-${b}$`], i + 2),
      analysis: `移项得一般形式 $x^2-${a}x-${b}=0$，一次项系数是 $-${a}$，常数项是 $-${b}$（系数都要带上符号）。`,
    })),
    [
      [4, 3],
      [6, 9],
      [2, 5],
      [5, 7],
    ].map(([b, c], i) => {
      const delta = b! * b! - 4 * c!;
      const right = delta > 0 ? '有两个不相等的实数根' : delta === 0 ? '有两个相等的实数根' : '没有实数根';
      const all = ['有两个不相等的实数根', '有两个相等的实数根', '没有实数根', '无法确定'];
      const at = all.indexOf(right);
      return {
        chapter: ch('21.2 解一元二次方程'),
        knowledgePoints: ['根的判别式'],
        type: 'single' as const,
        difficulty: 3 as const,
        stem: `一元二次方程 $x^2+${b}x+${c}=0$ 的根的情况是（第 ${i + 1} 题）`,
        options: all,
        answer: [LETTERS[at]!],
        analysis: `$\\Delta=b^2-4ac=${b}^2-4\\times 1\\times ${c}=${delta}$，${delta > 0 ? '$\\Delta>0$' : delta === 0 ? '$\\Delta=0$' : '$\\Delta<0$'}，所以方程${right}。`,
      };
    }),
  ] as Draft[][];
}

/** The practice questions, keyed math-practice-<template>-<variant>. */
export function mathPracticeQuestions(ch: Chapter): SeedQuestionDraft[] {
  return templates(ch).flatMap((variants, t) =>
    variants.map((draft, v) => ({ ...draft, key: `math-practice-${t + 1}-${v + 1}` })),
  );
}
