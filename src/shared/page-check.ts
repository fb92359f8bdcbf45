import type { z } from 'zod';

// A yes-or-no check compiled from a shared schema, with the same verdict as
// `schema.safeParse(value).success`, for every page that arrives (spec §3) at less cost: it only
// reads, stops at the first field that fails and leaves no copy behind. When it says no, ask zod
// why. Plain closures, no `new Function`, so it also runs under the app's CSP. It is built from
// the schemas' own definitions, so the shapes stay defined once (catalogue-schema.ts); a kind of
// schema it does not know throws at start-up rather than loosening the check.
// See docs/decisions/0001-compiled-page-check.md.

export type Check = (value: unknown) => boolean;

/** The parts of a zod 4 definition this compiler reads. */
interface Definition {
  type: string;
  checks?: ReadonlyArray<{ _zod: { def: CheckDefinition } }>;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
}

interface CheckDefinition {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
}

interface Schema {
  _zod: { def: Definition };
}

/** zod counts a string's length in code points, not UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

const lengthOf = (value: string | readonly unknown[]) =>
  typeof value === 'string' ? codePoints(value) : value.length;

function unsupported(what: string): never {
  throw new Error(
    `page-check: ${what} is not supported; extend page-check.ts or simplify the schema`,
  );
}

/** A string's or an array's length bounds. */
function lengthTest(check: CheckDefinition): (value: string | readonly unknown[]) => boolean {
  const { minimum, maximum } = check;
  if (check.check === 'min_length' && typeof minimum === 'number') {
    // A code point is one or two units: only a length between the bound and twice it is in doubt.
    return (value) =>
      value.length >= minimum && (value.length >= minimum * 2 || lengthOf(value) >= minimum);
  }
  if (check.check === 'max_length' && typeof maximum === 'number') {
    return (value) => value.length <= maximum || lengthOf(value) <= maximum;
  }
  return unsupported(`the check "${check.check}"`);
}

/** A number's checks: safe integers, lower and upper bounds. */
function numberTest(check: CheckDefinition): (value: number) => boolean {
  const { value: bound, inclusive } = check;
  if (check.check === 'number_format' && check.format === 'safeint') return Number.isSafeInteger;
  if (check.check === 'greater_than' && typeof bound === 'number')
    return inclusive ? (value) => value >= bound : (value) => value > bound;
  if (check.check === 'less_than' && typeof bound === 'number')
    return inclusive ? (value) => value <= bound : (value) => value < bound;
  return unsupported(`the number check "${check.check}" (${check.format ?? ''})`);
}

/** All of `tests`, or none to run. */
function allOf<T>(tests: Array<(value: T) => boolean>): (value: T) => boolean {
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0]!;
  return (value) => {
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
}

/** Compiles `schema` (one of the shared zod schemas) into a check. */
export function compileCheck(schema: z.ZodType): Check {
  return compile(schema as unknown as Schema);
}

function compile(schema: Schema): Check {
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  switch (def.type) {
    case 'string': {
      const test = allOf(checks.map(lengthTest));
      return (value) => typeof value === 'string' && test(value);
    }
    case 'number': {
      const test = allOf(checks.map(numberTest));
      return (value) => typeof value === 'number' && Number.isFinite(value) && test(value);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return (value) => value === undefined || inner(value);
    }
    case 'array': {
      const test = allOf(checks.map(lengthTest));
      const element = compile(def.element!);
      return (value) => {
        if (!Array.isArray(value) || !test(value)) return false;
        for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
        return true;
      };
    }
    case 'object': {
      // zod's default object strips unknown keys; a catchall (strict or loose objects) differs.
      if (def.catchall !== undefined) unsupported('an object with a catchall');
      if (checks.length > 0) unsupported('a check on an object');
      const keys = Object.keys(def.shape!);
      const fields = keys.map((key) => compile(def.shape![key]!));
      return (value) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
        const record = value as Record<string, unknown>;
        // An absent key reads as undefined, which only an optional field accepts, as in zod.
        for (let i = 0; i < keys.length; i++) if (!fields[i]!(record[keys[i]!])) return false;
        return true;
      };
    }
    default:
      return unsupported(`the zod type "${def.type}"`);
  }
}
