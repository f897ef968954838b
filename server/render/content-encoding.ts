import { Readable } from 'node:stream'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'
import type { FastifyReply } from 'fastify'
import Negotiator from 'negotiator'

/** The compressed forms the site makes, smallest first (docs/decisions/brotli-first.md). */
export type Encoding = 'br' | 'gzip'

/**
 * The server's order among encodings a client accepts equally: Brotli, then gzip, then the body
 * as it is. Browsers list `gzip, deflate, br, zstd` with no q-values, which ranks them all alike:
 * the client's order says nothing there, and Brotli is the smaller (docs/decisions/brotli-first.md).
 */
const SERVER_ORDER = ['br', 'gzip', 'identity'] as const

/**
 * Negotiator 1.x breaks ties by the server's `preferred` order; its types (@types/negotiator
 * 0.6) predate the option.
 */
type EncodingsInOrder = (
  this: Negotiator,
  available: readonly string[],
  options: { preferred: readonly string[] },
) => string[]

const negotiated = new Map<string, Encoding | null>()

/**
 * The encoding a client gets (q-values honoured, `br;q=0` and `identity;q=0` too), or null for
 * the body as it is. Browsers send a handful of distinct Accept-Encoding values; each is
 * negotiated once.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null
  let encoding = negotiated.get(acceptEncoding)
  if (encoding === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } })
    const [first] = (negotiator.encodings as EncodingsInOrder).call(negotiator, SERVER_ORDER, {
      preferred: SERVER_ORDER,
    })
    encoding = first === 'br' || first === 'gzip' ? first : null
    if (negotiated.size < 100) negotiated.set(acceptEncoding, encoding)
  }
  return encoding
}

/** Smaller bodies are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024

/** Brotli's quality for bodies compressed while they are sent: close to gzip's speed. */
const STREAMING_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }

/** A body compressed while it is sent; a failed source ends the compressed stream with its error. */
export function compressStream(encoding: Encoding, body: Readable | Buffer): Readable {
  const compressor = encoding === 'br' ? createBrotliCompress(STREAMING_BROTLI) : createGzip()
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body
  source.once('error', (error) => compressor.destroy(error))
  source.pipe(compressor)
  return compressor
}

/**
 * A body made for this request (a rendered page, a 404 page), compressed as the client
 * accepts: Brotli, else gzip. Sets `Content-Encoding` and adds `Accept-Encoding` to `Vary`.
 * Pages kept in memory are compressed once instead (page-cache.ts).
 */
export function compressForClient(
  reply: FastifyReply,
  acceptEncoding: string | undefined,
  body: Readable | Buffer,
): Readable | Buffer {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
  if (Buffer.isBuffer(body) && body.length < COMPRESS_MIN_BYTES) return body
  const encoding = chooseEncoding(acceptEncoding)
  if (!encoding) return body
  reply.header('content-encoding', encoding)
  return compressStream(encoding, body)
}
