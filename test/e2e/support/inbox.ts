/**
 * A real SMTP server on loopback for the host to send through (the `smtp-server` package), with
 * every message parsed as a mail client shows it.
 */
import type { AddressInfo } from 'node:net'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Inbox {
  /** `smtp://127.0.0.1:<port>`, the host's `smtpUrl`. */
  url: string
  mails: ParsedMail[]
  /** The messages to `email`, oldest first. */
  to(email: string): ParsedMail[]
  close(): Promise<void>
}

const addresses = (a: AddressObject | AddressObject[] | undefined) => [a ?? []].flat().flatMap((o) => o.value.map((v) => v.address))

export async function startInbox(): Promise<Inbox> {
  const mails: ParsedMail[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, _session, done) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail)
          done()
        },
        (err: Error) => done(err),
      )
    },
  })
  const port = await new Promise<number>((resolve) => {
    const server = smtp.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (email) => mails.filter((m) => addresses(m.to).includes(email)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  }
}
