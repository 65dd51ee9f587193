// The evaluation set split in two, fixed before any result was looked at: tasks at even positions
// of tasks.ts are the tuning half (what ranking changes may be judged on), odd positions the
// held-out half (looked at only to report; it stands for the owner's outside set). Position
// parity interleaves the six services, so each half has about half of each.
export const HALVES = {
  names: ['tuning', 'held-out', 'all'] as const,
  of: (index: number): 'tuning' | 'held-out' => (index % 2 === 0 ? 'tuning' : 'held-out'),
};
