// Which failed requests the server answered (a JSON-RPC error, a result that does not fit the protocol)
// and which got no answer at all: the SDK's own error classes, no process.
import * as assert from 'node:assert/strict';
import { ProtocolError, SdkError, SdkErrorCode } from '../../src/node/sdk';
import { isServerAnswer } from '../../src/node/serverAnswers';

describe('isServerAnswer', () => {
  it('counts a JSON-RPC error and a result the SDK refused as the server\'s answer, also as a cause', () => {
    assert.equal(isServerAnswer(new ProtocolError(-32601, 'Method not found')), true);
    assert.equal(isServerAnswer(new SdkError(SdkErrorCode.InvalidResult, 'missing required resultType')), true);
    assert.equal(isServerAnswer(new Error('the call failed', { cause: new Error('again', { cause: new ProtocolError(-32602, 'bad') }) })), true);
  });

  it('does not count a request that got no answer', () => {
    assert.equal(isServerAnswer(new SdkError(SdkErrorCode.RequestTimeout, 'timed out')), false);
    assert.equal(isServerAnswer(new SdkError(SdkErrorCode.ConnectionClosed, 'closed')), false);
    assert.equal(isServerAnswer(new Error('fetch failed', { cause: new TypeError('ECONNREFUSED') })), false);
    assert.equal(isServerAnswer(undefined), false);
    assert.equal(isServerAnswer('Method not found'), false);
  });
});
