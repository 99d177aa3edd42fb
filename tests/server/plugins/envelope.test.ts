/**
 * The response serializer of the declared schemas (server/plugins/envelope.ts): only declared fields leave
 * the server, the text is what the handler's answer reads as through JSON (Dates, toJSON(), undefined,
 * NaN), byte for byte what the earlier stringify -> parse -> stringify sent, and a large answer is
 * stringified once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ResponseContractError, responseSerializerCompiler } from '../../../server/plugins/envelope';

const compile = (schema: z.ZodType, strict = true, onMismatch: (url: string) => void = () => {}) =>
  responseSerializerCompiler({ strict, onMismatch })({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });

/** What the serializer sent before it stringified once: through JSON text, parse, stringify again. */
function throughText(schema: z.ZodType, data: unknown): string {
  const plain: unknown = JSON.parse(JSON.stringify(data) ?? 'null');
  const result = schema.safeParse(plain);
  return JSON.stringify(result.success ? result.data : plain);
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
  get sum() {
    return this.x + this.y;
  }
}

const sparse: unknown[] = [1, , 3]; // eslint-disable-line no-sparse-arrays
const nullProto = Object.assign(Object.create(null) as object, { a: 1, b: undefined });

const ODD_VALUES: [string, unknown][] = [
  ['a Date', { at: new Date(Date.UTC(2026, 10, 24, 8, 30)) }],
  ['nested toJSON', { a: { toJSON: (key: string) => ({ key, n: [1, undefined] }) } }],
  ['undefined, functions and symbols', { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('s')], e: 1 }],
  ['non-finite numbers and -0', { a: NaN, b: Infinity, c: -Infinity, d: -0, e: [NaN, -0] }],
  ['a sparse array', { list: sparse }],
  ['a Map, a Set and a class instance', { map: new Map([[1, 2]]), set: new Set([1]), point: new Point(1, 2) }],
  ['an object without prototype', { o: nullProto }],
  ['a Buffer', { b: Buffer.from('ab') }],
  ['integer-like keys', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ['a lone surrogate and escapes', { s: '\ud800 "q" \\ \n 智慧作业' }],
  ['undefined at the top', undefined],
  ['a Date at the top', new Date(0)],
  ['shared references', (() => { const o = { n: 1 }; return { a: o, b: [o, o] }; })()], // prettier-ignore
  ['an own __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "y": 2}')],
];

describe('the response serializer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends only the declared fields', () => {
    const serialize = compile(z.object({ code: z.number(), data: z.object({ id: z.number(), name: z.string() }) }));
    expect(serialize({ code: 200, data: { id: 1, name: '张三', passwordHash: 'x' }, extra: true })).toBe(
      '{"code":200,"data":{"id":1,"name":"张三"}}',
    );
  });

  it.each(ODD_VALUES)('sends %s byte for byte as through JSON text', (_, data) => {
    for (const schema of [z.unknown(), z.any(), z.object({ at: z.string().optional() }).loose()]) {
      // A schema the value does not satisfy falls back to the value as sent (not strict).
      const serialize = compile(schema, false);
      expect(serialize(data)).toBe(throughText(schema, data));
    }
  });

  it('reads Dates and toJSON as they are sent when checking the schema', () => {
    const serialize = compile(z.object({ at: z.string(), when: z.object({ day: z.number() }) }));
    const when = { toJSON: () => ({ day: 24, hour: 8 }) };
    expect(serialize({ at: new Date(Date.UTC(2026, 0, 2)), when })).toBe('{"at":"2026-01-02T00:00:00.000Z","when":{"day":24}}');
  });

  it('makes a mismatch a 500 when strict, and otherwise sends the answer as the handler made it', () => {
    const schema = z.object({ id: z.number() });
    expect(() => compile(schema)({ id: 'one' })).toThrow(ResponseContractError);
    const mismatches: string[] = [];
    const lenient = compile(schema, false, (url) => mismatches.push(url));
    expect(lenient({ id: 'one', at: new Date(0), gone: undefined })).toBe('{"id":"one","at":"1970-01-01T00:00:00.000Z"}');
    expect(mismatches).toEqual(['GET /api/x']);
  });

  it('still fails on what JSON cannot send (a cycle, a bigint)', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => compile(z.unknown())(cycle)).toThrow(TypeError);
    expect(() => compile(z.unknown())({ n: 1n })).toThrow(TypeError);
  });

  it('stringifies a large answer once and never parses it back', () => {
    // The shape of a homework analysis: ~1 MB of students x questions.
    const row = z.object({ studentId: z.number(), name: z.string(), scores: z.array(z.number().nullable()), at: z.string() });
    const schema = z.object({ code: z.number(), msg: z.string(), data: z.object({ students: z.array(row) }) });
    const students = Array.from({ length: 1000 }, (_, i) => ({
      studentId: i,
      name: `学生${i}`,
      scores: Array.from({ length: 40 }, (__, q) => (q % 7 === 0 ? null : ((i * q) % 50) / 10)),
      at: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    }));
    const data = { code: 200, msg: '操作成功', data: { students } };
    const expected = throughText(schema, data);
    expect(expected.length).toBeGreaterThan(200_000);
    const serialize = compile(schema);
    const stringify = vi.spyOn(JSON, 'stringify');
    const parse = vi.spyOn(JSON, 'parse');
    const text = serialize(data);
    // Date#toJSON calls toISOString, not JSON.stringify; the only call is the answer's own.
    expect(stringify).toHaveBeenCalledTimes(1);
    expect(parse).not.toHaveBeenCalled();
    expect(text).toBe(expected);
  });
});
