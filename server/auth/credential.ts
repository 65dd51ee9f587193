// What a verified bearer credential allows, whichever scheme it came from, and the one check
// every request makes against it.
import { Forbidden, ReadOnlyCredential } from '../errors.ts';

export type Access = 'read' | 'write';

export interface Credential {
  scheme: 'projectApiKey' | 'personalAccessToken';
  /** API key id, or the token's `sub`. For logs; never used to decide access. */
  subject: string;
  /** The projects it reaches: every project, or these ids. */
  projects: 'all' | ReadonlySet<string>;
  read: boolean;
  write: boolean;
}

/**
 * Throws unless the credential may perform `access` in `projectId`: Forbidden when it does not
 * reach the project (or may do nothing there), ReadOnlyCredential when it reaches it to read only.
 */
export function authorize(credential: Credential, projectId: string, access: Access): void {
  const reaches = credential.projects === 'all' || credential.projects.has(projectId);
  if (!reaches || !credential.read) throw new Forbidden();
  if (!credential[access]) throw new ReadOnlyCredential();
}
