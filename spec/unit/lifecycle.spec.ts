// The lifecycle readings of a description (owner, stage, links, sunset dates) and the judgement
// of a removal by its sunset on a given day.
import { expect } from 'chai';
import type { Diff } from 'api-smart-diff';
import { ownershipFields, sunsetOf } from '../../server/descriptions/lifecycle.ts';
import { judgedRemoval } from '../../server/changes/lifecycle.ts';
import type { Finding } from '../../server/changes/rules.ts';
import { compareDocuments } from '../../server/changes/compare.ts';

const removal = (before: unknown): Parameters<typeof judgedRemoval>[1] => ({ diff: { action: 'remove', before, path: [] } as unknown as Diff, at: [], lookup: () => undefined });
const removed: Finding = { rule: 'operation-removed', level: 'breaking', message: 'GET /tracks was removed.' };

describe('unit: lifecycle', () => {
  it('reads a sunset date, or the date of a date-time, and nothing else', () => {
    expect(sunsetOf({ 'x-sunset': '2026-06-30' })).to.equal('2026-06-30');
    expect(sunsetOf({ 'x-sunset': '2026-06-30T12:00:00Z' })).to.equal('2026-06-30');
    expect(sunsetOf({ 'x-sunset': '2026-02-30' }), 'no such day').to.equal(undefined);
    expect(sunsetOf({ 'x-sunset': 'Tue, 30 Jun 2026 00:00:00 GMT' }), 'an HTTP date is left in kvStorage').to.equal(undefined);
    expect(sunsetOf({ 'x-sunset': 20260630 })).to.equal(undefined);
    expect(sunsetOf({})).to.equal(undefined);
  });

  it('takes an owner, a known stage, the contact\'s strings and links that are URLs', () => {
    expect(ownershipFields({
      'x-owner': 'payments', 'x-lifecycle': 'experimental',
      contact: { name: 'Payments', email: 'pay@example.com', 'x-pager': 'p1' },
      'x-links': { docs: 'https://docs.example.com', chat: 'not a url', other: 'https://x.example.com' },
    })).to.deep.equal({ owner: 'payments', lifecycle: 'experimental', contact: { name: 'Payments', email: 'pay@example.com' }, links: { docs: 'https://docs.example.com' } });
    expect(ownershipFields({ 'x-lifecycle': 'Production', contact: {} })).to.deep.equal({ owner: undefined, lifecycle: undefined, contact: undefined, links: undefined });
  });

  it('judges a removal by deprecation and sunset on the given day', () => {
    expect(judgedRemoval(removed, removal({}), '2026-06-30')).to.deep.include({ level: 'breaking', lifecycle: 'removed_not_deprecated' });
    expect(judgedRemoval(removed, removal({ deprecated: true, 'x-sunset': '2026-07-01' }), '2026-06-30')).to.deep.include({ level: 'breaking', lifecycle: 'removed_before_sunset' });
    expect(judgedRemoval(removed, removal({ deprecated: true, 'x-sunset': '2026-06-30' }), '2026-06-30'), 'on the day').to.deep.include({ level: 'non-breaking', lifecycle: 'removed_after_sunset' });
    expect(judgedRemoval(removed, removal({ deprecated: true }), '2026-06-30'), 'no date: announced').to.deep.include({ level: 'non-breaking', lifecycle: 'removed_after_sunset' });
    expect(judgedRemoval(removed, removal({ 'x-sunset': '2020-01-01' }), '2026-06-30'), 'a sunset without deprecation is no deprecation').to.deep.include({ lifecycle: 'removed_not_deprecated' });
    const added: Finding = { rule: 'operation-added', level: 'non-breaking', message: 'GET /tracks was added.' };
    expect(judgedRemoval(added, removal({}), '2026-06-30')).to.equal(added);
  });

  it('reports a response property deprecated, and its removal after the sunset as planned', () => {
    const pets = (properties: Record<string, unknown>) => ({
      openapi: '3.1.0', info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } } } } },
    });
    const seen = (changes: ReturnType<typeof compareDocuments>) => changes.map((change) => `${change.level} ${change.rule} ${change.lifecycle ?? '-'}`);
    const before = pets({ name: { type: 'string' }, tag: { type: 'string' } });
    const marked = pets({ name: { type: 'string' }, tag: { type: 'string', deprecated: true, 'x-sunset': '2020-01-01' } });
    expect(seen(compareDocuments(before, marked)).sort()).to.deep.equal([
      'non-breaking response-property-deprecated deprecated',
      'non-breaking response-property-sunset-changed sunset_changed',
    ]);
    expect(seen(compareDocuments(marked, pets({ name: { type: 'string' } })))).to.deep.equal(['non-breaking response-property-removed removed_after_sunset']);
    expect(seen(compareDocuments(before, pets({ name: { type: 'string' } })))).to.deep.equal(['breaking response-property-removed removed_not_deprecated']);
  });
});
