/** Discards the CLI's output but counts it, so formatting cannot be optimised away (the lint and fix benches). */
export class CountingSink {
  public chars = 0;
  write(chunk: string): boolean {
    this.chars += chunk.length;
    return true;
  }
}
