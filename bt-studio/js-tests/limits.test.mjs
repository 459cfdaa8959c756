// The page's checks of the studio's limits (assets/limits.js): the same
// words as the server's (bt-studio/src/limits.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { traceBytesPastLimit, tracePastLimits } from '../assets/limits.js';

const limits = { traceBytes: 256 * 2 ** 20, traceNodes: 50000, traceEvents: 1000000 };
const trace = (nodes, events) => ({ nodes: { length: nodes }, events: { length: events } });

test('a file past the byte limit is refused with the limit and its size', () => {
  assert.equal(traceBytesPastLimit(limits.traceBytes, limits), null);
  assert.equal(
    traceBytesPastLimit(300000000, limits),
    "a trace of 300000000 bytes is past the studio's limit of 268435456 bytes (256 MiB)",
  );
});

test('a trace past the node or event limit is refused with the limit and its size', () => {
  assert.equal(tracePastLimits(trace(50000, 1000000), limits), null);
  assert.equal(tracePastLimits(trace(50001, 10), limits), "a trace of 50001 nodes is past the studio's limit of 50000 nodes");
  assert.equal(
    tracePastLimits(trace(10, 2000000), limits),
    "a trace of 2000000 events is past the studio's limit of 1000000 events",
  );
});
