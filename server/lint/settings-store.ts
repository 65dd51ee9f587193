// Each project's lint settings (settings.ts), versioned: every save is a new revision kept in
// `lintSettings` ({projectId, revision, settings, savedAt}), the highest the one in force; a
// project that never saved any lints with DEFAULT_SETTINGS (revision 0).
import type { Collection, Db } from 'mongodb';
import { DEFAULT_SETTINGS, type LintSettings } from './settings.ts';

export const LINT_SETTINGS = 'lintSettings';

export interface SavedSettings { revision: number; settings: LintSettings; savedAt?: Date }

type Stored = SavedSettings & { projectId: string };

export class LintSettingsStore {
  readonly #saved: Collection<Stored>;

  constructor(db: Db) {
    this.#saved = db.collection<Stored>(LINT_SETTINGS);
  }

  async createIndexes(): Promise<void> {
    await this.#saved.createIndex({ projectId: 1, revision: -1 }, { unique: true });
  }

  async current(projectId: string): Promise<SavedSettings> {
    const [latest] = await this.#saved.find({ projectId }, { projection: { _id: 0, projectId: 0 } }).sort({ revision: -1 }).limit(1).toArray();
    return latest ?? { revision: 0, settings: DEFAULT_SETTINGS };
  }

  /** Saves `settings` as the project's next revision; two saves at once: the unique index refuses one, which tries again. */
  async save(projectId: string, settings: LintSettings): Promise<SavedSettings> {
    for (;;) {
      const revision = (await this.current(projectId)).revision + 1;
      const saved = { projectId, revision, settings, savedAt: new Date() };
      try {
        await this.#saved.insertOne(saved);
        return { revision, settings, savedAt: saved.savedAt };
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
      }
    }
  }
}
