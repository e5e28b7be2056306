/**
 * Group commit: rows that arrive while the previous write is under way are written together by
 * the next one, so N workers finishing at once cost one statement, not N. A lone row is written
 * at once, or after `linger()` ms when more are likely to follow. Each caller's promise settles
 * when the write that carried its row does.
 */
export class GroupCommit<T> {
  private waiting: { item: T; settle: (err?: unknown) => void }[] = []
  private writing: Promise<void> | null = null

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly linger: () => number = () => 0,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, settle: (err) => (err === undefined ? resolve() : reject(err)) })
      this.writing ??= this.flush()
    })
  }

  /** Resolves when every row added so far has been written (or failed). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing
  }

  private async flush(): Promise<void> {
    const ms = this.linger()
    if (ms > 0) await new Promise((r) => setTimeout(r, ms))
    while (this.waiting.length) {
      const batch = this.waiting.splice(0)
      try {
        await this.write(batch.map((b) => b.item))
        for (const b of batch) b.settle()
      } catch (err) {
        for (const b of batch) b.settle(err)
      }
    }
    this.writing = null
  }
}
