/**
 * The account e-mails (verify, reset, sign-in link, invitation): one job kind on the one queue,
 * rendered at send time in the reader's language with the envelope e-mails' layout. The job
 * carries the link's row id only; the link's value is derived here (links.ts), and a link used
 * or replaced before the job runs is not sent.
 */
import type { KeyObject } from 'node:crypto'
import type { Db, Queryable } from '../db/index.js'
import { enqueue, type JobHandler } from '../jobs/enqueue.js'
import { MAIL_STRINGS, mailLanguage, type MailLanguage } from '../mail/i18n.js'
import { layout, oneLine, type Block } from '../mail/templates.js'
import type { MailTransport } from '../mail/transport.js'
import { linkValue, type LinkPurpose } from './links.js'

export const ACCOUNT_MAIL_JOB = 'account-mail'

export interface AccountMailPayload {
  linkId: string
  purpose: LinkPurpose
  to: string
  language: MailLanguage
  /** Invitations: the team and who invited. */
  teamName?: string | undefined
  inviter?: string | undefined
}

export async function sendAccountMail(tx: Queryable, p: AccountMailPayload): Promise<void> {
  await enqueue(tx, { kind: ACCOUNT_MAIL_JOB, payload: { ...p } })
}

/** The console path a link opens; the value travels in the fragment, which no server or Referer sees. */
export const linkUrl = (origin: string, purpose: LinkPurpose, value: string) => `${origin.replace(/\/+$/, '')}/console/link/${purpose}#${value}`

interface Words {
  subject: string
  heading: string
  body: string
  button: string
  note: string
}

const WORDS: Record<MailLanguage, (p: AccountMailPayload) => Words> = {
  en: (p) =>
    ({
      verify: { subject: 'Confirm your e-mail address', heading: 'Confirm your e-mail address', body: 'Confirm that this address is yours to finish setting up your account.', button: 'Confirm address', note: 'The link works once, for 24 hours. If you did not create an account, ignore this message.' },
      reset: { subject: 'Reset your password', heading: 'Reset your password', body: 'Someone asked to reset the password of the account with this address. Choose a new password with the link below.', button: 'Choose a new password', note: 'The link works once, for one hour. If you did not ask for it, ignore this message: your password stays as it is.' },
      signin: { subject: 'Your sign-in link', heading: 'Sign in', body: 'Use the link below to sign in to your account.', button: 'Sign in', note: 'The link works once, for 15 minutes. If you did not ask for it, ignore this message.' },
      invite: { subject: `Join ${p.teamName ?? 'a team'}`, heading: `Join ${p.teamName ?? 'a team'}`, body: `${p.inviter ?? 'A team member'} invited you to join ${p.teamName ?? 'their team'}.`, button: 'Accept the invitation', note: 'The invitation is valid for 7 days.' },
    })[p.purpose],
  de: (p) =>
    ({
      verify: { subject: 'Bestätigen Sie Ihre E-Mail-Adresse', heading: 'Bestätigen Sie Ihre E-Mail-Adresse', body: 'Bestätigen Sie, dass diese Adresse Ihnen gehört, um Ihr Konto fertig einzurichten.', button: 'Adresse bestätigen', note: 'Der Link gilt einmal, 24 Stunden lang. Wenn Sie kein Konto angelegt haben, ignorieren Sie diese Nachricht.' },
      reset: { subject: 'Passwort zurücksetzen', heading: 'Passwort zurücksetzen', body: 'Jemand möchte das Passwort des Kontos mit dieser Adresse zurücksetzen. Wählen Sie über den Link ein neues Passwort.', button: 'Neues Passwort wählen', note: 'Der Link gilt einmal, eine Stunde lang. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht.' },
      signin: { subject: 'Ihr Anmeldelink', heading: 'Anmelden', body: 'Melden Sie sich mit dem folgenden Link bei Ihrem Konto an.', button: 'Anmelden', note: 'Der Link gilt einmal, 15 Minuten lang. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.' },
      invite: { subject: `Einladung in ${p.teamName ?? 'ein Team'}`, heading: `Einladung in ${p.teamName ?? 'ein Team'}`, body: `${p.inviter ?? 'Ein Teammitglied'} hat Sie in ${p.teamName ?? 'sein Team'} eingeladen.`, button: 'Einladung annehmen', note: 'Die Einladung gilt 7 Tage.' },
    })[p.purpose],
  fr: (p) =>
    ({
      verify: { subject: 'Confirmez votre adresse e-mail', heading: 'Confirmez votre adresse e-mail', body: 'Confirmez que cette adresse est la vôtre pour terminer la création de votre compte.', button: 'Confirmer l’adresse', note: 'Le lien fonctionne une fois, pendant 24 heures. Si vous n’avez pas créé de compte, ignorez ce message.' },
      reset: { subject: 'Réinitialiser votre mot de passe', heading: 'Réinitialiser votre mot de passe', body: 'Quelqu’un a demandé à réinitialiser le mot de passe du compte lié à cette adresse. Choisissez un nouveau mot de passe avec le lien ci-dessous.', button: 'Choisir un nouveau mot de passe', note: 'Le lien fonctionne une fois, pendant une heure. Si vous ne l’avez pas demandé, ignorez ce message.' },
      signin: { subject: 'Votre lien de connexion', heading: 'Se connecter', body: 'Utilisez le lien ci-dessous pour vous connecter à votre compte.', button: 'Se connecter', note: 'Le lien fonctionne une fois, pendant 15 minutes. Si vous ne l’avez pas demandé, ignorez ce message.' },
      invite: { subject: `Rejoindre ${p.teamName ?? 'une équipe'}`, heading: `Rejoindre ${p.teamName ?? 'une équipe'}`, body: `${p.inviter ?? 'Un membre de l’équipe'} vous invite à rejoindre ${p.teamName ?? 'son équipe'}.`, button: 'Accepter l’invitation', note: 'L’invitation est valable 7 jours.' },
    })[p.purpose],
  es: (p) =>
    ({
      verify: { subject: 'Confirme su dirección de correo', heading: 'Confirme su dirección de correo', body: 'Confirme que esta dirección es suya para terminar de configurar su cuenta.', button: 'Confirmar la dirección', note: 'El enlace sirve una vez, durante 24 horas. Si no ha creado ninguna cuenta, ignore este mensaje.' },
      reset: { subject: 'Restablezca su contraseña', heading: 'Restablezca su contraseña', body: 'Alguien ha pedido restablecer la contraseña de la cuenta con esta dirección. Elija una contraseña nueva con el enlace de abajo.', button: 'Elegir una contraseña nueva', note: 'El enlace sirve una vez, durante una hora. Si no lo ha pedido, ignore este mensaje: su contraseña no cambia.' },
      signin: { subject: 'Su enlace de inicio de sesión', heading: 'Iniciar sesión', body: 'Use el enlace de abajo para iniciar sesión en su cuenta.', button: 'Iniciar sesión', note: 'El enlace sirve una vez, durante 15 minutos. Si no lo ha pedido, ignore este mensaje.' },
      invite: { subject: `Únase a ${p.teamName ?? 'un equipo'}`, heading: `Únase a ${p.teamName ?? 'un equipo'}`, body: `${p.inviter ?? 'Un miembro del equipo'} le ha invitado a unirse a ${p.teamName ?? 'su equipo'}.`, button: 'Aceptar la invitación', note: 'La invitación es válida durante 7 días.' },
    })[p.purpose],
  it: (p) =>
    ({
      verify: { subject: 'Conferma il tuo indirizzo e-mail', heading: 'Conferma il tuo indirizzo e-mail', body: 'Conferma che questo indirizzo è tuo per completare la configurazione del tuo account.', button: 'Conferma l’indirizzo', note: 'Il link funziona una volta, per 24 ore. Se non hai creato un account, ignora questo messaggio.' },
      reset: { subject: 'Reimposta la password', heading: 'Reimposta la password', body: 'Qualcuno ha chiesto di reimpostare la password dell’account con questo indirizzo. Scegli una nuova password con il link qui sotto.', button: 'Scegli una nuova password', note: 'Il link funziona una volta, per un’ora. Se non l’hai richiesto, ignora questo messaggio: la tua password resta invariata.' },
      signin: { subject: 'Il tuo link di accesso', heading: 'Accedi', body: 'Usa il link qui sotto per accedere al tuo account.', button: 'Accedi', note: 'Il link funziona una volta, per 15 minuti. Se non l’hai richiesto, ignora questo messaggio.' },
      invite: { subject: `Entra in ${p.teamName ?? 'un team'}`, heading: `Entra in ${p.teamName ?? 'un team'}`, body: `${p.inviter ?? 'Un membro del team'} ti ha invitato a entrare in ${p.teamName ?? 'il suo team'}.`, button: 'Accetta l’invito', note: 'L’invito è valido per 7 giorni.' },
    })[p.purpose],
  nl: (p) =>
    ({
      verify: { subject: 'Bevestig uw e-mailadres', heading: 'Bevestig uw e-mailadres', body: 'Bevestig dat dit adres van u is om uw account af te maken.', button: 'Adres bevestigen', note: 'De link werkt één keer, 24 uur lang. Hebt u geen account gemaakt? Negeer dan dit bericht.' },
      reset: { subject: 'Wachtwoord opnieuw instellen', heading: 'Wachtwoord opnieuw instellen', body: 'Iemand heeft gevraagd het wachtwoord van het account met dit adres opnieuw in te stellen. Kies met de link hieronder een nieuw wachtwoord.', button: 'Nieuw wachtwoord kiezen', note: 'De link werkt één keer, een uur lang. Hebt u dit niet aangevraagd? Negeer dan dit bericht: uw wachtwoord blijft ongewijzigd.' },
      signin: { subject: 'Uw inloglink', heading: 'Inloggen', body: 'Gebruik de link hieronder om in te loggen op uw account.', button: 'Inloggen', note: 'De link werkt één keer, 15 minuten lang. Hebt u hem niet aangevraagd? Negeer dan dit bericht.' },
      invite: { subject: `Word lid van ${p.teamName ?? 'een team'}`, heading: `Word lid van ${p.teamName ?? 'een team'}`, body: `${p.inviter ?? 'Een teamlid'} heeft u uitgenodigd lid te worden van ${p.teamName ?? 'zijn team'}.`, button: 'Uitnodiging aannemen', note: 'De uitnodiging is 7 dagen geldig.' },
    })[p.purpose],
  'pt-BR': (p) =>
    ({
      verify: { subject: 'Confirme seu endereço de e-mail', heading: 'Confirme seu endereço de e-mail', body: 'Confirme que este endereço é seu para terminar de configurar sua conta.', button: 'Confirmar o endereço', note: 'O link funciona uma vez, por 24 horas. Se você não criou uma conta, ignore esta mensagem.' },
      reset: { subject: 'Redefina sua senha', heading: 'Redefina sua senha', body: 'Alguém pediu para redefinir a senha da conta com este endereço. Escolha uma nova senha pelo link abaixo.', button: 'Escolher uma nova senha', note: 'O link funciona uma vez, por uma hora. Se você não pediu, ignore esta mensagem: sua senha continua a mesma.' },
      signin: { subject: 'Seu link de acesso', heading: 'Entrar', body: 'Use o link abaixo para entrar na sua conta.', button: 'Entrar', note: 'O link funciona uma vez, por 15 minutos. Se você não pediu, ignore esta mensagem.' },
      invite: { subject: `Entre em ${p.teamName ?? 'uma equipe'}`, heading: `Entre em ${p.teamName ?? 'uma equipe'}`, body: `${p.inviter ?? 'Um membro da equipe'} convidou você para entrar em ${p.teamName ?? 'sua equipe'}.`, button: 'Aceitar o convite', note: 'O convite é válido por 7 dias.' },
    })[p.purpose],
  pl: (p) =>
    ({
      verify: { subject: 'Potwierdź adres e-mail', heading: 'Potwierdź adres e-mail', body: 'Potwierdź, że ten adres należy do Ciebie, aby dokończyć zakładanie konta.', button: 'Potwierdź adres', note: 'Link działa jeden raz, przez 24 godziny. Jeśli nie zakładasz konta, zignoruj tę wiadomość.' },
      reset: { subject: 'Zresetuj hasło', heading: 'Zresetuj hasło', body: 'Ktoś poprosił o zresetowanie hasła do konta z tym adresem. Wybierz nowe hasło za pomocą linku poniżej.', button: 'Wybierz nowe hasło', note: 'Link działa jeden raz, przez godzinę. Jeśli o to nie prosisz, zignoruj tę wiadomość: hasło pozostanie bez zmian.' },
      signin: { subject: 'Twój link do logowania', heading: 'Zaloguj się', body: 'Użyj linku poniżej, aby zalogować się na swoje konto.', button: 'Zaloguj się', note: 'Link działa jeden raz, przez 15 minut. Jeśli o niego nie prosisz, zignoruj tę wiadomość.' },
      invite: { subject: `Dołącz do zespołu ${p.teamName ?? ''}`.trim(), heading: `Dołącz do zespołu ${p.teamName ?? ''}`.trim(), body: `${p.inviter ?? 'Członek zespołu'} zaprasza Cię do zespołu ${p.teamName ?? ''}`.trim() + '.', button: 'Przyjmij zaproszenie', note: 'Zaproszenie jest ważne przez 7 dni.' },
    })[p.purpose],
}

export function accountMailJob(deps: { db: Db; transport: MailTransport; publicUrl: () => string; linkKey: KeyObject }): JobHandler {
  return async (job) => {
    const p = job.payload as unknown as AccountMailPayload
    const [live] = await deps.db.query('select 1 from account_links where id = $1 and used_at is null and expires_at > now()', [p.linkId])
    if (!live) return // used or replaced meanwhile: nothing to send
    const lang = mailLanguage(p.language)
    const clean = { ...p, teamName: p.teamName && oneLine(p.teamName), inviter: p.inviter && oneLine(p.inviter) }
    const w = WORDS[lang](clean)
    const url = linkUrl(deps.publicUrl(), p.purpose, linkValue(deps.linkKey, p.linkId))
    const s = MAIL_STRINGS[lang]
    const blocks: Block[] = [
      { kind: 'p', text: w.body },
      { kind: 'button', label: w.button, url },
      { kind: 'link', before: s.linkFallback, url },
      { kind: 'small', text: w.note },
    ]
    const team = clean.teamName || 'Envelope'
    const rendered = layout({ lang, s, subject: w.subject, preheader: w.body, teamName: team, heading: w.heading, blocks, footer: s.footer(team) })
    await deps.transport.send({ to: p.to, ...rendered, template: `account-${p.purpose}` })
  }
}
