import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/**
 * Requests Node's HTTP parser refuses before hapi sees them (a header block
 * over the size limit, a malformed request line) are answered here in the
 * unified envelope: 431 for oversized headers, 400 otherwise. The parser's
 * error carries the raw bytes of the request, API keys included; it is
 * logged by its code alone and the bytes are dropped. This replaces hapi's
 * own handler, which logs the whole error.
 */
export function answerClientErrors(listener: HttpServer, logger: Logger, onRefused: (code: string) => void): void {
  listener.removeAllListeners('clientError');
  listener.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket) => {
    delete error.rawPacket;
    const code = error.code ?? 'UNKNOWN';
    onRefused(code);
    logger.warn({ parserError: code }, 'refused a request the HTTP parser could not read');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      success: false,
      error: {
        code: 'BAD_REQUEST',
        message: tooLarge ? 'Request headers are too large' : 'Malformed HTTP request',
        retryable: false,
        exchange: null,
        detail: { parserError: code },
      },
    });
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
