import type { JobRecord } from '../jobs/job-records.ts';
import type { JobStore } from '../jobs/job-store.ts';
import { luaScript } from './lua-script.ts';
import type { RedisConnection } from './redis-connection.ts';

// Jobs shared by replicas (jobs/job-store.ts is the port): any replica answers about any job,
// and one at a time runs it. Under `{prefix}jobs:{scope}:` are the record (`job:`), the key it
// was asked under (`key:`), the unfinished jobs (`open`), the runner's lease (`lease:`), the rows
// a page to a list element with where each ends (`part:`, `ends:`, then `result:`,
// `result-ends:`, `size:`), and the page kept aside (`ahead:`). Rows are kept a page an element,
// so a result of any size is read a piece at a time from any byte. Every write is a script that
// first checks the lease, so a runner that lost its job writes nothing more.

/** Elements read by one command. */
const ELEMENTS_A_READ = 16;

const FENCE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
`;

/** KEYS: lease, job, part, ends, open, key index. ARGV: owner, record, id, kept ms (0: unfinished). */
const SAVE = `${FENCE}redis.call('SET', KEYS[2], ARGV[2])
if tonumber(ARGV[4]) > 0 then
  redis.call('ZREM', KEYS[5], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[6], ARGV[4])
  redis.call('DEL', KEYS[3], KEYS[4], KEYS[1])
end
return 1`;

/** KEYS: lease, job, part, ends. ARGV: owner, record, rows, end byte. */
const COMMIT = `${FENCE}local element = redis.call('RPUSH', KEYS[3], ARGV[3]) - 1
redis.call('ZADD', KEYS[4], ARGV[4], element)
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

/** KEYS: lease, job, part, ends. ARGV: owner, record, bytes of whole pages. */
const RESUME = `${FENCE}local keep = redis.call('ZCOUNT', KEYS[4], '-inf', ARGV[3])
if keep == 0 then redis.call('DEL', KEYS[3], KEYS[4])
else
  redis.call('LTRIM', KEYS[3], 0, keep - 1)
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '(' .. ARGV[3], '+inf')
end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

/**
 * KEYS: lease, job, part, ends, result, result ends, size, open, key index.
 * ARGV: owner, record, text, 'tail' | 'replace', id, kept ms, bytes before the text, bytes after.
 */
const FINISH = `${FENCE}if ARGV[4] == 'replace' then redis.call('DEL', KEYS[3], KEYS[4]) end
if ARGV[3] ~= '' then
  local element = redis.call('RPUSH', KEYS[3], ARGV[3]) - 1
  redis.call('ZADD', KEYS[4], ARGV[8], element)
end
redis.call('DEL', KEYS[5], KEYS[6])
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('RENAME', KEYS[3], KEYS[5])
  redis.call('RENAME', KEYS[4], KEYS[6])
end
redis.call('SET', KEYS[7], ARGV[8], 'PX', ARGV[6])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[6])
redis.call('ZREM', KEYS[8], ARGV[5])
redis.call('PEXPIRE', KEYS[5], ARGV[6])
redis.call('PEXPIRE', KEYS[6], ARGV[6])
redis.call('PEXPIRE', KEYS[9], ARGV[6])
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
 * KEYS: job, open, key index, lease, part, ends, result, result ends, size, page aside.
 * ARGV: id, the record cancelled, kept ms. 1, or the job as it is when already finished.
 */
const CANCEL = `local record = redis.call('GET', KEYS[1])
if not record then return false end
local state = cjson.decode(record).state
if state == 'done' or state == 'failed' or state == 'cancelled' then return record end
redis.call('DEL', KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
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
    ends: (id: string) => `${prefix}ends:${id}`,
    result: (id: string) => `${prefix}result:${id}`,
    resultEnds: (id: string) => `${prefix}result-ends:${id}`,
    size: (id: string) => `${prefix}size:${id}`,
    ahead: (id: string) => `${prefix}ahead:${id}`,
  };
  /** The keys every runner's write is made under: the lease that fences it first. */
  const written = (id: string) => [k.lease(id), k.job(id), k.part(id), k.ends(id)];
  /** Every key a job's rows are kept under. */
  const rows = (id: string) => [
    k.part(id),
    k.ends(id),
    k.result(id),
    k.resultEnds(id),
    k.size(id),
    k.ahead(id),
  ];
  const script = (name: string, keys: number, lua: string) =>
    luaScript(redis, `explorerJobs${name}`, keys, lua);
  const save = script('Save', 6, SAVE);
  const commit = script('Commit', 4, COMMIT);
  const resume = script('Resume', 4, RESUME);
  const finish = script('Finish', 9, FINISH);
  const create = script('Create', 2, CREATE);
  const cancel = script('Cancel', 10, CANCEL);
  const claim = script('Claim', 1, CLAIM);
  const renew = script('Renew', 1, RENEW);
  const release = script('Release', 1, RELEASE);

  /** Every call reports a failure to the connection, so that it checks the link at once. */
  const reported = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      connection.reportFailure(error);
      throw error;
    }
  };
  /** Whether a lease's script answered 1: the lease is (still) the runner's, and it wrote. */
  const fenced = async (call: Promise<unknown>) => (await reported(call)) === 1;
  const read = (text: string | null | undefined) =>
    text === null || text === undefined ? undefined : (JSON.parse(text) as JobRecord);
  const kept = (record: JobRecord) =>
    record.expiresAt === null ? 0 : Math.max(1, record.expiresAt - Date.now());

  /** The result's bytes from `start` to `end` (inclusive), an element at a time. */
  async function* pieces(id: string, start: number, end: number): AsyncGenerator<Buffer> {
    // The first element that ends after `start`, and where it begins.
    const found = await reported(
      redis.zrangebyscore(k.resultEnds(id), `(${start}`, '+inf', 'WITHSCORES', 'LIMIT', 0, 1),
    );
    if (found.length < 2) return;
    let element = Number(found[0]);
    let at =
      element === 0
        ? 0
        : Number(await reported(redis.zscore(k.resultEnds(id), String(element - 1))));
    while (at <= end) {
      const batch = await reported(
        redis.lrangeBuffer(k.result(id), element, element + ELEMENTS_A_READ - 1),
      );
      if (batch.length === 0) return;
      for (const piece of batch) {
        const from = Math.max(0, start - at);
        const to = Math.min(piece.length, end + 1 - at);
        if (to > from) yield piece.subarray(from, to);
        at += piece.length;
        if (at > end) return;
      }
      element += batch.length;
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
          [k.job(id), k.open, k.key(record.key), k.lease(id), ...rows(id)],
          [id, JSON.stringify(cancelled), resultTtlMs],
        ),
      )) as string | number | null;
      return answer === 1 ? cancelled : read(answer as string | null);
    },
    // Finished jobs lapse by themselves (PEXPIRE at their end).
    async sweep() {},
    claim: (id, owner, ms) => fenced(claim([k.lease(id)], [owner, ms])),
    renew: (id, owner, ms) => fenced(renew([k.lease(id)], [owner, ms])),
    async release(id, owner) {
      await reported(release([k.lease(id)], [owner]));
    },
    resume: (owner, record) =>
      fenced(resume(written(record.id), [owner, JSON.stringify(record), record.bytes])),
    save: (owner, record) =>
      fenced(
        save(
          [...written(record.id), k.open, k.key(record.key)],
          [owner, JSON.stringify(record), record.id, record.state === 'failed' ? kept(record) : 0],
        ),
      ),
    commitPage: (owner, record, text) =>
      fenced(commit(written(record.id), [owner, JSON.stringify(record), text, record.bytes])),
    async stash(id, continuation, body) {
      // Lapses by itself: a page kept aside is only for the next runner of an unfinished job.
      await reported(
        redis.set(
          k.ahead(id),
          Buffer.concat([Buffer.from(`${continuation}\n`), body]),
          'PX',
          resultTtlMs,
        ),
      );
      return true;
    },
    async stashed(id) {
      const text = await reported(redis.getBuffer(k.ahead(id)));
      if (text === null) return null;
      const line = text.indexOf(10);
      return {
        continuation: text.subarray(0, line).toString('utf8'),
        body: text.subarray(line + 1),
      };
    },
    async *partLines(id) {
      // A page's rows end with their line, so every element holds whole lines.
      for (let element = 0; ; element += ELEMENTS_A_READ) {
        const batch = await reported(
          redis.lrange(k.part(id), element, element + ELEMENTS_A_READ - 1),
        );
        for (const text of batch) for (const line of text.split('\n')) if (line !== '') yield line;
        if (batch.length < ELEMENTS_A_READ) return;
      }
    },
    async finish(owner, record, ending) {
      const text = 'replace' in ending ? ending.replace : ending.tail;
      const before = 'replace' in ending ? 0 : record.bytes;
      const bytes = before + Buffer.byteLength(text);
      const { id } = record;
      return fenced(
        finish(
          [...written(id), k.result(id), k.resultEnds(id), k.size(id), k.open, k.key(record.key)],
          [
            owner,
            JSON.stringify({ ...record, bytes }),
            text,
            'replace' in ending ? 'replace' : 'tail',
            id,
            kept(record),
            before,
            bytes,
          ],
        ),
      );
    },
    async resultSize(id) {
      const size = await reported(redis.get(k.size(id)));
      return size === null ? null : Number(size);
    },
    readResult(id, start, end) {
      const source = pieces(id, start, end);
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
