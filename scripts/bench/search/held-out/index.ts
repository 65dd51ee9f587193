// The held-out half of the search evaluation: five public APIs nobody tuned the ranking on, with
// tasks written before any ranking ran on them. Reported, never tuned on; halves.ts loads this
// file only when a run is not --tuning-only.
import type { TaskSet } from '../task-set.ts';
import { ASANA, ASANA_TASKS } from './asana.ts';
import { BOX, BOX_TASKS } from './box.ts';
import { SENDGRID, SENDGRID_TASKS } from './sendgrid.ts';
import { TWILIO, TWILIO_TASKS } from './twilio.ts';
import { ZOOM, ZOOM_TASKS } from './zoom.ts';

export const HELD_OUT: TaskSet = {
  half: 'held-out',
  sources: [TWILIO, ZOOM, ASANA, BOX, SENDGRID],
  tasks: [...TWILIO_TASKS, ...ZOOM_TASKS, ...ASANA_TASKS, ...BOX_TASKS, ...SENDGRID_TASKS],
};
