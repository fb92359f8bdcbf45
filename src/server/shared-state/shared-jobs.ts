import { StringDecoder } from 'node:string_decoder';
import type { JobRecord } from '../jobs/job-records.ts';
import type { JobStore } from '../jobs/job-store.ts';
import { luaScript, type RedisConnection } from './redis-connection.ts';

// Jobs shared by replicas (jobs/job-store.ts is the port): any replica answers about any job,
// and one at a time runs it. Under `{prefix}jobs:{scope}:`
//   job:{id}     the record, as JSON
//   key:{key}    the job asked for under a key (the same list, kind, format and client)
//   open         the unfinished jobs, a sorted set scored by when each was asked for
//   lease:{id}   the runner's name, lapsing unless renewed
//   part:{id}    the rows so far, appended a page at a time
//   result:{id}  the file, once done
// Each runner's write is a script that first checks the lease is still the runner's, so it is
// atomic with that check: a runner that lost its lease (it paused longer than the lease and was
// taken over, or the job was cancelled, which drops the lease) writes nothing more. A page's
// rows and the record that notes the page go in one step, so a takeover cuts the part back to
// exactly the whole pages its record counts (`bytes`) and reads on from `next`. Finished jobs
// (and their results) lapse by themselves after the kept time. The rows stay in Redis, not in a
// replica: a replica reads a result a piece at a time, so none holds a file whole.

/** How much of a part or a result one command reads. */
const PIECE_BYTES = 256 * 1024;

const FENCE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
`;

/** KEYS: lease, job, open, key index, part. ARGV: owner, record, id, kept ms (0: unfinished). */
const SAVE = `${FENCE}redis.call('SET', KEYS[2], ARGV[2])
if tonumber(ARGV[4]) > 0 then
  redis.call('ZREM', KEYS[3], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
  redis.call('DEL', KEYS[5], KEYS[1])
end
return 1`;

/** KEYS: lease, job, part. ARGV: owner, record, rows. */
const COMMIT = `${FENCE}redis.call('APPEND', KEYS[3], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

/** KEYS: lease, job, part. ARGV: owner, record, bytes of whole pages. */
const RESUME = `${FENCE}local keep = tonumber(ARGV[3])
if redis.call('STRLEN', KEYS[3]) > keep then
  if keep == 0 then redis.call('DEL', KEYS[3])
  else redis.call('SET', KEYS[3], redis.call('GETRANGE', KEYS[3], 0, keep - 1)) end
end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

/**
 * KEYS: lease, job, part, result, open, key index.
 * ARGV: owner, record, text, 'tail' | 'replace', id, kept ms.
 */
const FINISH = `${FENCE}if ARGV[4] == 'replace' then
  redis.call('SET', KEYS[4], ARGV[3])
  redis.call('DEL', KEYS[3])
else
  redis.call('APPEND', KEYS[3], ARGV[3])
  redis.call('RENAME', KEYS[3], KEYS[4])
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[5], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[4], ARGV[6])
redis.call('PEXPIRE', KEYS[6], ARGV[6])
redis.call('DEL', KEYS[1])
return 1`;

/** KEYS: key index, open. ARGV: the jobs' prefix, new id, record, asked at. */
const CREATE = `local known = redis.call('GET', KEYS[1])
if known then
  local record = redis.call('GET', ARGV[1] .. 'job:' .. known)
  if record then
    local state = cjson.decode(record).state
    if state ~= 'failed' and state ~= 'cancelled' then return record end
  end
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', ARGV[1] .. 'job:' .. ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
return false`;

/**
 * KEYS: job, lease, part, result, open, key index. ARGV: id, the record cancelled, kept ms.
 * 1, or the job as it is when already finished.
 */
const CANCEL = `local record = redis.call('GET', KEYS[1])
if not record then return false end
local state = cjson.decode(record).state
if state == 'done' or state == 'failed' or state == 'cancelled' then return record end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[6], ARGV[3])
return 1`;

/** KEYS: lease. ARGV: owner, ms. */
const CLAIM = `local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** KEYS: lease. ARGV: owner, ms. */
const RENEW = `${FENCE}redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS: lease. ARGV: owner. */
const RELEASE = `${FENCE}redis.call('DEL', KEYS[1])
return 1`;

/** KEYS: result. The result's size, or -1 when there is none. */
const SIZE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('STRLEN', KEYS[1])`;

export function sharedJobStore(options: {
  connection: RedisConnection;
  keyPrefix: string;
  /** The upstream's key (disk/upstream-scope.ts): jobs of another upstream are not these. */
  scope: string;
  /** How long a cancelled job's record is kept (as a result would be). */
  resultTtlMs: number;
}): JobStore {
  const { connection, resultTtlMs } = options;
  const redis = connection.client;
  const prefix = `${options.keyPrefix}jobs:${options.scope}:`;
  const k = {
    job: (id: string) => `${prefix}job:${id}`,
    key: (key: string) => `${prefix}key:${key}`,
    open: `${prefix}open`,
    lease: (id: string) => `${prefix}lease:${id}`,
    part: (id: string) => `${prefix}part:${id}`,
    result: (id: string) => `${prefix}result:${id}`,
  };
  const script = (name: string, keys: number, lua: string) =>
    luaScript(redis, `explorerJobs${name}`, keys, lua);
  const save = script('Save', 5, SAVE);
  const commit = script('Commit', 3, COMMIT);
  const resume = script('Resume', 3, RESUME);
  const finish = script('Finish', 6, FINISH);
  const create = script('Create', 2, CREATE);
  const cancel = script('Cancel', 6, CANCEL);
  const claim = script('Claim', 1, CLAIM);
  const renew = script('Renew', 1, RENEW);
  const release = script('Release', 1, RELEASE);
  const size = script('Size', 1, SIZE);

  /** Every call reports a failure to the connection, so that it checks the link at once. */
  const reported = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      connection.reportFailure(error);
      throw error;
    }
  };
  const read = (text: string | null | undefined) =>
    text === null || text === undefined ? undefined : (JSON.parse(text) as JobRecord);
  const kept = (record: JobRecord) =>
    record.expiresAt === null ? 0 : Math.max(1, record.expiresAt - Date.now());

  /** `key`'s bytes from `start` to `end`, a piece at a time. */
  async function* pieces(key: string, start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at <= end; at += PIECE_BYTES) {
      const piece = await reported(
        redis.getrangeBuffer(key, at, Math.min(end, at + PIECE_BYTES - 1)),
      );
      if (piece.length === 0) return;
      yield piece;
    }
  }

  return {
    get: async (id) => read(await reported(redis.get(k.job(id)))),
    async create(record) {
      const known = (await reported(
        create(
          [k.key(record.key), k.open],
          [prefix, record.id, JSON.stringify(record), String(record.createdAt)],
        ),
      )) as string | null;
      return known === null ? { record, created: true } : { record: read(known)!, created: false };
    },
    unfinished: () => reported(redis.zrange(k.open, '0', '-1')),
    async cancel(id, at) {
      const record = read(await reported(redis.get(k.job(id))));
      if (record === undefined) return undefined;
      // Kept as cancelled, for whoever holds its address, as long as a result would be.
      const cancelled: JobRecord = {
        ...record,
        state: 'cancelled',
        waitingUntil: null,
        updatedAt: at,
      };
      const answer = (await reported(
        cancel(
          [k.job(id), k.lease(id), k.part(id), k.result(id), k.open, k.key(record.key)],
          [id, JSON.stringify(cancelled), resultTtlMs],
        ),
      )) as string | number | null;
      return answer === 1 ? cancelled : read(answer as string | null);
    },
    // Finished jobs lapse by themselves (PEXPIRE at their end).
    async sweep() {},
    claim: async (id, owner, ms) => (await reported(claim([k.lease(id)], [owner, ms]))) === 1,
    renew: async (id, owner, ms) => (await reported(renew([k.lease(id)], [owner, ms]))) === 1,
    async release(id, owner) {
      await reported(release([k.lease(id)], [owner]));
    },
    resume: async (owner, record) =>
      (await reported(
        resume(
          [k.lease(record.id), k.job(record.id), k.part(record.id)],
          [owner, JSON.stringify(record), record.bytes],
        ),
      )) === 1,
    save: async (owner, record) =>
      (await reported(
        save(
          [k.lease(record.id), k.job(record.id), k.open, k.key(record.key), k.part(record.id)],
          [owner, JSON.stringify(record), record.id, record.state === 'failed' ? kept(record) : 0],
        ),
      )) === 1,
    commitPage: async (owner, record, text) =>
      (await reported(
        commit(
          [k.lease(record.id), k.job(record.id), k.part(record.id)],
          [owner, JSON.stringify(record), text],
        ),
      )) === 1,
    async *partLines(id) {
      const decoder = new StringDecoder('utf8');
      let rest = '';
      for await (const piece of pieces(k.part(id), 0, Number.MAX_SAFE_INTEGER)) {
        const lines = (rest + decoder.write(piece)).split('\n');
        rest = lines.pop()!;
        for (const line of lines) if (line !== '') yield line;
      }
      rest += decoder.end();
      if (rest !== '') yield rest;
    },
    async finish(owner, record, ending) {
      const text = 'replace' in ending ? ending.replace : ending.tail;
      const bytes =
        'replace' in ending ? Buffer.byteLength(text) : record.bytes + Buffer.byteLength(text);
      const done: JobRecord = { ...record, bytes };
      const { id } = record;
      return (
        (await reported(
          finish(
            [k.lease(id), k.job(id), k.part(id), k.result(id), k.open, k.key(record.key)],
            [
              owner,
              JSON.stringify(done),
              text,
              'replace' in ending ? 'replace' : 'tail',
              id,
              kept(record),
            ],
          ),
        )) === 1
      );
    },
    async resultSize(id) {
      const bytes = (await reported(size([k.result(id)], []))) as number;
      return bytes < 0 ? null : bytes;
    },
    readResult(id, start, end) {
      const source = pieces(k.result(id), start, end);
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await source.next();
            if (done) controller.close();
            else controller.enqueue(new Uint8Array(value));
          } catch (error) {
            controller.error(error);
          }
        },
        async cancel() {
          await source.return(undefined);
        },
      });
    },
    async close() {},
  };
}
