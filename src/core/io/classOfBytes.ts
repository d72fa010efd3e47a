/**
 * The class of a label or prediction cell found from its UTF-8 bytes, so that the byte scanner
 * builds no string for a class name it has already met (a file of 200,000 rows has 400,000 such
 * cells but only as many distinct spellings as classes). A spelling not met before is decoded once
 * and its class found by the caller's rule on the text.
 *
 * The spellings are kept by the readers' byte interner ({@link ByteInterner}), whose value for a
 * spelling is its class + 1, or 0 when it names no class: such a cell always goes back to the
 * caller's full path, which reports it.
 */
import { IdIndex } from '../data/rankingData';
import { ByteInterner, type ByteIdSink } from './ranking/byteInterner';

export class ClassOfBytes implements ByteIdSink {
  // The interner numbers new spellings through this sink; its id index stays empty.
  private readonly spellings = new ByteInterner(new IdIndex(), this);

  /** `classOf(text)`: the class of a cell's text, or -1 when it names none. */
  constructor(private readonly classOf: (text: string) => number) {}

  /** The class of the cell whose bytes are `buf[start, end)`, or -1 when it names none. */
  get(buf: Uint8Array, start: number, end: number): number {
    return this.spellings.intern(buf, start, end) - 1;
  }

  /** A spelling met for the first time: its class + 1 (0: none), kept as its value. */
  addBytes(buf: Uint8Array, start: number, len: number): number {
    return this.classOf(Buffer.from(buf.buffer, buf.byteOffset + start, len).toString('utf8')) + 1;
  }
}
