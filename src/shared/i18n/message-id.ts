import type app from '../messages/en/app.json';
import type following from '../messages/en/following.json';
import type jobs from '../messages/en/jobs.json';
import type keys from '../messages/en/keys.json';
import type problems from '../messages/en/problems.json';
import type progress from '../messages/en/progress.json';
import type server from '../messages/en/server.json';
import type views from '../messages/en/views.json';
import type wholeList from '../messages/en/whole-list.json';

// The message IDs are English's: a call naming an ID no English area file holds does not
// type-check. Registered with Lingui, so `i18n._` and `<Trans id>` take only these.

export type MessageId =
  | keyof typeof app
  | keyof typeof following
  | keyof typeof jobs
  | keyof typeof keys
  | keyof typeof problems
  | keyof typeof progress
  | keyof typeof server
  | keyof typeof views
  | keyof typeof wholeList;

declare module '@lingui/core' {
  interface Register {
    messageIds: MessageId;
  }
}
