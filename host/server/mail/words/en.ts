/**
 * The e-mails' words in English: its shape is every language's (MailStrings). Every value is plain
 * text: the templates escape it. Titles are quoted the way each language quotes.
 */
const en = {
  /** The title as quoted in running text. */
  quote: (t: string) => `“${t}”`,
  greeting: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
  request: {
    subject: {
      SIGNER: (t: string) => `Please sign “${t}”`,
      APPROVER: (t: string) => `Please approve “${t}”`,
      VIEWER: (t: string) => `Please review “${t}”`,
      ASSISTANT: (t: string) => `Please fill in “${t}”`,
    },
    intro: {
      SIGNER: (team: string, t: string) => `${team} has sent you “${t}” to sign.`,
      APPROVER: (team: string, t: string) => `${team} has sent you “${t}” to approve.`,
      VIEWER: (team: string, t: string) => `${team} has sent you “${t}” to review.`,
      ASSISTANT: (team: string, t: string) => `${team} asks you to fill in “${t}”.`,
    },
    button: { SIGNER: 'Sign the document', APPROVER: 'Approve the document', VIEWER: 'Review the document', ASSISTANT: 'Fill in the document' },
  },
  reminder: {
    /** Put before the subject, custom or default. */
    prefix: 'Reminder: ',
    intro: {
      SIGNER: (team: string, t: string) => `This is a reminder: ${team} is still waiting for you to sign “${t}”.`,
      APPROVER: (team: string, t: string) => `This is a reminder: ${team} is still waiting for you to approve “${t}”.`,
      VIEWER: (team: string, t: string) => `This is a reminder: ${team} is still waiting for you to review “${t}”.`,
      ASSISTANT: (team: string, t: string) => `This is a reminder: ${team} is still waiting for you to fill in “${t}”.`,
    },
  },
  /** Above the team's own words (documentMeta.message). */
  messageFrom: (team: string) => `${team} writes:`,
  linkFallback: 'If the button does not work, open this link:',
  personalLink: 'This link is personal to you: please do not forward this e-mail.',
  completed: {
    subject: (t: string) => `“${t}” is complete`,
    /** `n`: how many signed files are attached. */
    body: (t: string, n: number) =>
      `Everyone has completed “${t}”.` + (n === 0 ? '' : n === 1 ? ' The signed document is attached.' : ' The signed documents are attached.'),
    again: 'You can download it again at any time from this link:',
    button: 'Open the document',
  },
  rejected: {
    subject: (name: string, t: string) => `${name} rejected “${t}”`,
    body: (name: string, t: string) => `${name} rejected “${t}”. The document can no longer be signed.`,
  },
  cancelled: {
    subject: (t: string) => `“${t}” was cancelled`,
    body: (team: string, t: string) => `${team} cancelled “${t}”. It can no longer be signed, and nothing more is needed from you.`,
  },
  teamCompleted: {
    subject: (t: string) => `“${t}” was completed by everyone`,
    body: (t: string, n: number) =>
      `Everyone has completed “${t}”.` + (n === 0 ? '' : n === 1 ? ' The signed document is attached.' : ' The signed documents are attached.'),
    who: 'Recipients:',
  },
  reason: 'Reason:',
  /** What each role did, in the team's completion notice. */
  did: { SIGNER: 'signed', APPROVER: 'approved', VIEWER: 'viewed', ASSISTANT: 'filled in', CC: 'received a copy' },
  footer: (team: string) => `Sent on behalf of ${team}.`,
  /** Before a bare link in the text part ("Sign the document:"). */
  colon: ':',
  /** The one-time code a recipient asks for on the signing page. */
  code: {
    subject: 'Your signing code',
    body: (t: string) => `Enter this code on the signing page of "${t}":`,
    note: 'The code works once, for 10 minutes. If you did not ask for it, ignore this message.',
  },
  /** The account e-mails by the link's purpose; `p` names the team and who invited, for invitations. */
  account: (p: { teamName?: string | undefined; inviter?: string | undefined }) => ({
    verify: { subject: 'Confirm your e-mail address', heading: 'Confirm your e-mail address', body: 'Confirm that this address is yours to finish setting up your account.', button: 'Confirm address', note: 'The link works once, for 24 hours. If you did not create an account, ignore this message.' },
    reset: { subject: 'Reset your password', heading: 'Reset your password', body: 'Someone asked to reset the password of the account with this address. Choose a new password with the link below.', button: 'Choose a new password', note: 'The link works once, for one hour. If you did not ask for it, ignore this message: your password stays as it is.' },
    signin: { subject: 'Your sign-in link', heading: 'Sign in', body: 'Use the link below to sign in to your account.', button: 'Sign in', note: 'The link works once, for 15 minutes. If you did not ask for it, ignore this message.' },
    invite: { subject: `Join ${p.teamName ?? 'a team'}`, heading: `Join ${p.teamName ?? 'a team'}`, body: `${p.inviter ?? 'A team member'} invited you to join ${p.teamName ?? 'their team'}.`, button: 'Accept the invitation', note: 'The invitation is valid for 7 days.' },
  }),
}
export default en
export type MailStrings = typeof en
