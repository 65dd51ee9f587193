// A request's database budget (server/pipeline/deadline.ts): past it the answer is 503, and the warn line
// logged for it says which database call was waiting and after how long, for an operator.
import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { pino } from 'pino';
import type { Db } from 'mongodb';
import { Deadline } from '../../server/pipeline/deadline.ts';
import { ServiceUnavailable } from '../../server/errors.ts';
import { renderError } from '../../server/http/errors.ts';
import { requestLog } from '../../server/http/request-log.ts';
import { budgeted } from '../../server/store/budget.ts';

/**
 * A database whose every find never answers (a collection scan that outlives any budget). What
 * find gives is awaited here and, as a driver cursor is, told to call back when it closes.
 */
const stuck = budgeted({
  collection: (name: string) => ({ collectionName: name, find: () => Object.assign(new Promise(() => {}), { once: () => {} }) }),
} as unknown as Db, undefined);

describe('Deadline: the request budget for database work', () => {
  it('says which call outlived the budget, and after how long, in the 503 it raises', async () => {
    const deadline = new Deadline(100);
    let thrown: unknown;
    try {
      await deadline.bound(() => stuck.collection('paths').find({}) as unknown as Promise<unknown>);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(ServiceUnavailable);
    expect((thrown as Error).message).to.match(/^the request's database budget \(DB_TIMEOUT_MS 100 ms\) ran out after \d+ ms waiting on paths\.find \(sent \d+ ms before\)$/);
    expect((thrown as ServiceUnavailable).body()).to.deep.equal({ error: 'Service Unavailable' });
  });

  it('says so when the budget ran out before a call was sent', async () => {
    const deadline = new Deadline(100);
    let thrown: unknown;
    let late!: Promise<void>;
    await deadline.bound(() => {
      late = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        try {
          deadline.callMs('requests.find');
        } catch (error) {
          thrown = error;
        }
      })();
      return late;
    }).catch(() => {});
    await late;
    expect((thrown as Error).message).to.match(/ran out after \d+ ms, before requests\.find was sent$/);
  });

  it('puts it in the warn line of the 503, never in the answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = express();
    app.use(requestLog(pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })));
    app.get('/paths', async () => {
      await new Deadline(100).bound(() => stuck.collection('paths').find({}) as unknown as Promise<unknown>);
    });
    app.use(renderError);
    const res = await supertest(app).get('/paths');
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ error: 'Service Unavailable' });
    const warning = lines.find((line) => line['msg'] === 'database unavailable');
    expect(warning, JSON.stringify(lines)).to.include({ cause: 'ServiceUnavailable' });
    expect(warning!['message']).to.match(/DB_TIMEOUT_MS 100 ms\) ran out after \d+ ms waiting on paths\.find \(sent \d+ ms before\)/);
  });
});
