import type { Handler, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { ProblemCode } from '../../shared/problem-codes.ts';
import type { AppEnv } from './app-env.ts';
import { rawQueryOf, readQuery } from './query.ts';

// What one operation of the HTTP API is, written once (routes/api-operations.ts): the router
// registers it from this, the OpenAPI document describes it from this (openapi/), and a test
// holds every answer a route gives to the statuses and codes it declares. Its parameters are
// zod schemas: the query reader accepts the names they give, and the document lists them.

type Json = Record<string, unknown>;

/** The groups operations come in, each with what the document says of it. */
export const OPERATION_TAGS = {
  Lookups: 'One page of a list at a time.',
  'Whole lists':
    'Answers that read a list to its end, through the same cache and quota as the lookups.',
  Explorer: 'What the app itself needs.',
  Operations: 'For orchestrators and scrapers.',
  Documentation: 'This document, for tools and for people.',
};

/** The parameters in one part of a request, as zod reads them, each with what it is for. */
export interface ParameterSet<Shape extends z.ZodRawShape = z.ZodRawShape> {
  schema: z.ZodObject<Shape>;
  descriptions: Record<keyof Shape & string, string>;
}

/** `schema`'s parameters, described: the compiler asks for a description of each. */
export const described = <Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  descriptions: Record<keyof Shape & string, string>,
): ParameterSet<Shape> => ({ schema, descriptions });

/** A successful answer of an operation. */
export interface AnswerSpec {
  description: string;
  /** Media type → its OpenAPI media type object (schema, and what else describes it). */
  content?: Record<string, Json>;
  /** Header name → its OpenAPI header object or a `$ref` to a shared one. */
  headers?: Record<string, Json>;
}

export interface Operation<Deps> {
  /** The OpenAPI operationId: unique, and stable for clients generated from the document. */
  id: string;
  /**
   * GET (and HEAD with it) for everything that reads; POST and DELETE only for the jobs that
   * whole-list work runs as (routes/jobs.ts), the one thing a client makes and ends.
   */
  method: 'get' | 'post' | 'delete';
  /** What a POST sends: its media type's OpenAPI media type object. */
  requestBody?: { description: string; content: Record<string, Json> };
  /** An OpenAPI path template: `{name}` is a path parameter, several may share a segment. */
  path: string;
  tag: keyof typeof OPERATION_TAGS;
  summary: string;
  /** Who may call it: anyone, or bearers of the metrics token. */
  security: 'public' | 'metricsToken';
  /** Its parameters: those of `path` must be the template's, and all are required. */
  input: { path?: ParameterSet; query?: ParameterSet; header?: ParameterSet };
  /** The answers that are not problems, by status (a 304, a probe's 503 with its body). */
  answers: Record<string, AnswerSpec>;
  /** The problems it answers with; each has its code's status (shared/problem-codes.ts). */
  problems: readonly ProblemCode[];
  /** Members some of its problems carry beyond RFC 9457's (§3.2): code → member → schema. */
  problemMembers?: Partial<Record<ProblemCode, Record<string, Json>>>;
  /** Its handler over the app's parts; undefined when this configuration has no such route. */
  handler(deps: Deps): Handler<AppEnv> | undefined;
}

/** Problems any operation may answer with, from the router rather than the route. */
export const ROUTER_PROBLEMS: readonly ProblemCode[] = ['method_not_allowed', 'internal_error'];

const PARAMETER = /\{([^}]+)\}/g;

/**
 * The operation's path as Hono matches it. A segment that is one parameter is a Hono
 * parameter; a segment with more (`{id}.{format}`) is matched whole and split by
 * `pathParameters`, since Hono names one parameter a segment.
 */
export function routerPath(template: string): string {
  return template
    .split('/')
    .map((segment, index) => {
      const names = [...segment.matchAll(PARAMETER)];
      if (names.length === 0) return segment;
      if (names.length === 1 && names[0]?.[0] === segment) return `:${names[0][1]}`;
      return `:segment${index}`;
    })
    .join('/');
}

type Splitter = { index: number; pattern: RegExp; names: string[] };

/**
 * The path parameters of a matched request, by the names the template gives them (decoded
 * once, as the router decodes), or null when a shared segment does not have its shape.
 */
export function pathParameters(template: string) {
  const splitters: Splitter[] = [];
  template.split('/').forEach((segment, index) => {
    const names = [...segment.matchAll(PARAMETER)].map((m) => m[1] as string);
    if (names.length < 2) return;
    // Odd parts are the names. Each but the last takes as much as it can, the last no dot:
    // `a.b.csv` is `a.b` and `csv`.
    const parts = segment.split(PARAMETER);
    const last = parts.length - 2;
    const source = parts
      .map((part, i) => (i % 2 === 0 ? escape(part) : i === last ? '([^.]+)' : '(.+)'))
      .join('');
    splitters.push({ index, pattern: new RegExp(`^${source}$`), names });
  });
  return (raw: Record<string, string>): Record<string, string> | null => {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw))
      if (!name.startsWith('segment')) params[name] = value;
    for (const { index, pattern, names } of splitters) {
      const match = pattern.exec(raw[`segment${index}`] ?? '');
      if (match === null) return null;
      names.forEach((name, i) => (params[name] = match[i + 1] as string));
    }
    return params;
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Reads what an operation declares before its handler runs: its path parameters and its query
 * (read, not judged: the handler decides when a bad one is refused, after what comes first).
 */
export function operationInput(operation: Operation<unknown>): MiddlewareHandler<AppEnv> {
  const split = pathParameters(operation.path);
  const names = Object.keys(operation.input.query?.schema.shape ?? {});
  return async (c, next) => {
    c.set('params', split(c.req.param() as Record<string, string>));
    c.set('query', readQuery(rawQueryOf(c.req.url), names));
    await next();
  };
}
