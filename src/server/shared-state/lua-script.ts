import type { Redis } from 'ioredis';

// Kept apart from redis-connection.ts, which loads ioredis itself: the job store names its
// scripts in every process, but only a replica given REDIS_URL loads the Redis client.

/** A server-side script, sent once and then called by its hash (ioredis's defineCommand). */
export type LuaScript = (keys: string[], args: Array<string | number | Buffer>) => Promise<unknown>;

type Command = (...args: Array<string | number | Buffer>) => Promise<unknown>;

export function luaScript(
  client: Redis,
  name: string,
  numberOfKeys: number,
  lua: string,
  options: { buffers?: boolean } = {},
): LuaScript {
  client.defineCommand(name, { numberOfKeys, lua });
  // defineCommand adds `name` and, replying with Buffers instead of strings, `${name}Buffer`.
  const command = (client as unknown as Record<string, Command>)[
    options.buffers ? `${name}Buffer` : name
  ] as Command;
  return (keys, args) => command.call(client, ...keys, ...args);
}
