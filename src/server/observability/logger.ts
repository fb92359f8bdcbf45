import { pino, type DestinationStream, type Logger } from 'pino';

// Structured JSON logs, one object per line. The credentials are never handed to a logger; the
// redact list is the second line of defence, should a future change log a header set or an options
// object by mistake.

export const REDACTED_PATHS = [
  'apiKey',
  'apiSecret',
  '*.apiKey',
  '*.apiSecret',
  'headers["api-key"]',
  'headers["api-secret"]',
  '*.headers["api-key"]',
  '*.headers["api-secret"]',
  'headers["API-Key"]',
  'headers["API-Secret"]',
  '*.headers["API-Key"]',
  '*.headers["API-Secret"]',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'explorer' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
