/**
 * The words of the service's e-mails in every language it speaks, one file per language
 * (host/shared/words/<language>/mail.ts): flat keys on the words core (host/shared/i18n.ts),
 * English's keys every language's. The templates read them through MailStrings, one object per
 * language.
 */
import { format, type Params } from '../../shared/i18n.js'
import { languageOf, type Language } from '../../shared/languages.js'
import en, { type MailKey, type MailWords } from '../../shared/words/en/mail.js'
import { WORDS } from './words.js'

export type { MailKey, MailWords }
export type MailLanguage = Language

/** The roles that act on a document; CC gets no signing request and falls back to VIEWER. */
export type ActingRole = 'SIGNER' | 'APPROVER' | 'VIEWER' | 'ASSISTANT'
const ACTING: readonly ActingRole[] = ['SIGNER', 'APPROVER', 'VIEWER', 'ASSISTANT']

/** Every language's dictionary, flat: what the parity test compares. */
export const MAIL_WORDS: Record<Language, MailWords> = WORDS

type Purpose = 'verify' | 'reset' | 'signin' | 'invite'
interface AccountWords {
  subject: string
  heading: string
  body: string
  button: string
  note: string
}

/** The e-mails' words in one language, as the templates use them: texts, and the phrases with values as functions. */
export interface MailStrings {
  /** The title as quoted in running text. */
  quote: (title: string) => string
  greeting: (name: string | null) => string
  request: { subject: Record<ActingRole, (title: string) => string>; intro: Record<ActingRole, (team: string, title: string) => string>; button: Record<ActingRole, string> }
  /** The reminder's subject holds the request's (custom or default). */
  reminder: { subject: (subject: string) => string; intro: Record<ActingRole, (team: string, title: string) => string> }
  /** Above the team's own words (documentMeta.message). */
  messageFrom: (team: string) => string
  linkFallback: string
  personalLink: string
  /** `body`'s `n`: how many signed files are attached. */
  completed: { subject: (title: string) => string; body: (title: string, n: number) => string; again: string; button: string }
  rejected: { subject: (name: string, title: string) => string; body: (name: string, title: string) => string }
  cancelled: { subject: (title: string) => string; body: (team: string, title: string) => string }
  teamCompleted: { subject: (title: string) => string; body: (title: string, n: number) => string; who: string; item: (who: string, did: string) => string }
  reason: string
  /** What each role did, in the team's completion notice. */
  did: Record<ActingRole | 'CC', string>
  footer: (team: string) => string
  /** Before a bare link in the text part ("Sign the document:"). */
  colon: string
  /** The one-time code a recipient asks for on the signing page. */
  code: { subject: string; body: (title: string) => string; note: string }
  /** The account e-mails by the link's purpose; `p` names the team and who invited, for invitations. */
  account: (p: { teamName?: string | undefined; inviter?: string | undefined }) => Record<Purpose, AccountWords>
}

function stringsOf(lang: Language): MailStrings {
  const say = (key: MailKey, params?: Params) => format(MAIL_WORDS[lang], key, params, lang, en)
  const byRole = <T>(make: (role: ActingRole) => T) => Object.fromEntries(ACTING.map((r) => [r, make(r)])) as Record<ActingRole, T>
  const attached = (base: 'completed' | 'teamCompleted') => (title: string, n: number) => (n === 0 ? say(`${base}.body`, { title }) : format(MAIL_WORDS[lang], `${base}.attached`, { title, count: n }, lang, en))
  const account = (purpose: Purpose, p: { teamName?: string | undefined; inviter?: string | undefined }): AccountWords => {
    // An invitation names the team and who invited when known; each missing one has its own wording.
    const variant = purpose !== 'invite' ? '' : p.teamName && p.inviter ? '' : p.teamName ? '.noInviter' : p.inviter ? '.noTeam' : '.neither'
    const params = { team: p.teamName ?? '', inviter: p.inviter ?? '' }
    const field = (name: keyof AccountWords) => say(`account.${purpose}.${name}${name === 'button' || name === 'note' ? '' : variant}` as MailKey, params)
    return { subject: field('subject'), heading: field('heading'), body: field('body'), button: field('button'), note: field('note') }
  }
  return {
    quote: (title) => say('quote', { title }),
    greeting: (name) => (name ? say('greeting', { name }) : say('greeting.noName')),
    request: {
      subject: byRole((r) => (title: string) => say(`request.subject.${r}`, { title })),
      intro: byRole((r) => (team: string, title: string) => say(`request.intro.${r}`, { team, title })),
      button: byRole((r) => say(`request.button.${r}`)),
    },
    reminder: { subject: (subject) => say('reminder.subject', { subject }), intro: byRole((r) => (team: string, title: string) => say(`reminder.intro.${r}`, { team, title })) },
    messageFrom: (team) => say('messageFrom', { team }),
    linkFallback: say('linkFallback'),
    personalLink: say('personalLink'),
    completed: { subject: (title) => say('completed.subject', { title }), body: attached('completed'), again: say('completed.again'), button: say('completed.button') },
    rejected: { subject: (name, title) => say('rejected.subject', { name, title }), body: (name, title) => say('rejected.body', { name, title }) },
    cancelled: { subject: (title) => say('cancelled.subject', { title }), body: (team, title) => say('cancelled.body', { team, title }) },
    teamCompleted: { subject: (title) => say('teamCompleted.subject', { title }), body: attached('teamCompleted'), who: say('teamCompleted.who'), item: (who, did) => say('teamCompleted.item', { who, did }) },
    reason: say('reason'),
    did: { ...byRole((r) => say(`did.${r}`)), CC: say('did.CC') },
    footer: (team) => say('footer', { team }),
    colon: say('colon'),
    code: { subject: say('code.subject'), body: (title) => say('code.body', { title }), note: say('code.note') },
    account: (p) => ({ verify: account('verify', p), reset: account('reset', p), signin: account('signin', p), invite: account('invite', p) }),
  }
}

export const MAIL_STRINGS: Record<Language, MailStrings> = Object.fromEntries(Object.keys(MAIL_WORDS).map((l) => [l, stringsOf(l as Language)])) as Record<Language, MailStrings>

/** documentMeta.language as a mail language: a language spoken by its primary subtag ("de-AT" is German); anything else English. */
export const mailLanguage = (tag: unknown): MailLanguage => languageOf(tag)

export function actingRole(role: string): ActingRole {
  return role === 'SIGNER' || role === 'APPROVER' || role === 'ASSISTANT' ? role : 'VIEWER'
}
