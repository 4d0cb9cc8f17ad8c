/**
 * How a failed upstream request reads to the caller (plugins/upstreams/client/call-errors.ts),
 * for the errors of both SDKs: the v1 client's (2025-11-25 upstreams) and the v2 client's
 * (2026-07-28 upstreams), made by the SDKs' own classes. What the upstream answered is
 * UPSTREAM_ERROR with its code and words; only the client's own timeout is TIMEOUT and only a
 * lost connection SERVER_UNAVAILABLE.
 */
import { expect } from 'chai';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
// The v1 SDK as Switchboard loads it (its bundle): the class its client throws.
import { ErrorCode, McpError } from '#mcp-sdk/types.js';
import { LOST_ANSWER } from '../../plugins/upstreams/client/answer-streams.js';
import { mapUpstreamError, UpstreamAnswerError } from '../../plugins/upstreams/client/call-errors.js';
import { HttpStatusError } from '../../plugins/upstreams/client/http-answer.js';

const map = (err: unknown) => mapUpstreamError('billing', "tool 'pay'", err, (t) => t.replace('s3cret', '[redacted]'));

describe('upstream call errors as the caller reads them', () => {
  describe('2026-07-28 upstreams (the v2 client)', () => {
    it("the server's JSON-RPC error is UPSTREAM_ERROR with its code and words, scrubbed", () => {
      const e = map(new ProtocolError(-32602, 'no such invoice: 42 (key s3cret)'));
      expect(e.code).to.equal('UPSTREAM_ERROR');
      expect(e.message).to.include('-32602').and.include('no such invoice: 42 (key [redacted])').and.not.include('s3cret');
    });

    it("the client's own timeout is TIMEOUT with its length", () => {
      const e = map(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 1000 }));
      expect(e.code).to.equal('TIMEOUT');
      expect(e.message).to.equal("tool 'pay' on server 'billing' timed out after 1000 ms");
    });

    it("a 400 whose body is the server's JSON-RPC error (-32020: headers and body disagree) is UPSTREAM_ERROR with that code, not the server being away", () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, error: { code: -32020, message: 'Bad Request: the request headers and body disagree' } });
      const e = map(new HttpStatusError(400, body, undefined));
      expect(e.code).to.equal('UPSTREAM_ERROR');
      expect(e.details).to.include({ upstreamCode: -32020 });
      expect(e.message).to.include('headers and body disagree');
      // Without a JSON-RPC error in it, or a 5xx, it stays SERVER_UNAVAILABLE.
      expect(map(new HttpStatusError(400, 'Bad Request', undefined)).code).to.equal('SERVER_UNAVAILABLE');
      expect(map(new HttpStatusError(503, body, undefined)).code).to.equal('SERVER_UNAVAILABLE');
    });

    it('a closed connection is SERVER_UNAVAILABLE saying so; another client failure is SERVER_UNAVAILABLE with its words', () => {
      expect(map(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')).message).to.include('the connection closed during the call');
      const other = map(new SdkError(SdkErrorCode.RequestTimeout, 'cancelled by s3cret'));
      expect(other.code).to.equal('SERVER_UNAVAILABLE');
      expect(other.message).to.include('cancelled by [redacted]');
    });
  });

  describe('2025-11-25 upstreams (the v1 client)', () => {
    it("an answer the transport lost (its stream ended early, not resumable) is SERVER_UNAVAILABLE with the transport's reason, scrubbed", () => {
      const reason = 'the server ended the stream of its answer before answering (s3cret)';
      const e = map(new UpstreamAnswerError(ErrorCode.ConnectionClosed, reason, { [LOST_ANSWER]: reason }));
      expect(e.code).to.equal('SERVER_UNAVAILABLE');
      expect(e.message).to.include('the server ended the stream of its answer before answering ([redacted])');
      // Only the transport's own mark (a string) counts: anything else under that key is the server's answer.
      expect(map(new UpstreamAnswerError(ErrorCode.ConnectionClosed, 'nope', { [LOST_ANSWER]: true })).code).to.equal('UPSTREAM_ERROR');
    });

    it("the server's answer is UPSTREAM_ERROR, even with the codes the SDK uses for its own failures", () => {
      expect(map(new UpstreamAnswerError(ErrorCode.RequestTimeout, 'slow backend')).code).to.equal('UPSTREAM_ERROR');
      expect(map(new UpstreamAnswerError(ErrorCode.ConnectionClosed, 'Connection closed')).code).to.equal('UPSTREAM_ERROR');
    });

    it("the SDK's own timeout is TIMEOUT; its connection closed is SERVER_UNAVAILABLE", () => {
      expect(map(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 5000 })).code).to.equal('TIMEOUT');
      expect(map(new McpError(ErrorCode.ConnectionClosed, 'Connection closed')).code).to.equal('SERVER_UNAVAILABLE');
    });

    it('a transport failure is SERVER_UNAVAILABLE with its words, scrubbed', () => {
      const e = map(new Error('cannot reach http://h/mcp?key=s3cret: ECONNREFUSED'));
      expect(e.code).to.equal('SERVER_UNAVAILABLE');
      expect(e.message).to.include('ECONNREFUSED').and.not.include('s3cret');
    });
  });
});
