import type { MailStrings } from './en.js'

/** The e-mails' words in Spanish. */
const es: MailStrings = {
  quote: (t) => `«${t}»`,
  greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
  request: {
    subject: {
      SIGNER: (t) => `Por favor, firme «${t}»`,
      APPROVER: (t) => `Por favor, apruebe «${t}»`,
      VIEWER: (t) => `Por favor, revise «${t}»`,
      ASSISTANT: (t) => `Por favor, rellene «${t}»`,
    },
    intro: {
      SIGNER: (team, t) => `${team} le ha enviado «${t}» para que lo firme.`,
      APPROVER: (team, t) => `${team} le ha enviado «${t}» para que lo apruebe.`,
      VIEWER: (team, t) => `${team} le ha enviado «${t}» para que lo revise.`,
      ASSISTANT: (team, t) => `${team} le pide que rellene «${t}».`,
    },
    button: { SIGNER: 'Firmar el documento', APPROVER: 'Aprobar el documento', VIEWER: 'Revisar el documento', ASSISTANT: 'Rellenar el documento' },
  },
  reminder: {
    prefix: 'Recordatorio: ',
    intro: {
      SIGNER: (team, t) => `Le recordamos que ${team} sigue esperando su firma de «${t}».`,
      APPROVER: (team, t) => `Le recordamos que ${team} sigue esperando su aprobación de «${t}».`,
      VIEWER: (team, t) => `Le recordamos que ${team} sigue esperando que revise «${t}».`,
      ASSISTANT: (team, t) => `Le recordamos que ${team} sigue esperando que rellene «${t}».`,
    },
  },
  messageFrom: (team) => `${team} escribe:`,
  linkFallback: 'Si el botón no funciona, abra este enlace:',
  personalLink: 'Este enlace es personal: no reenvíe este correo.',
  completed: {
    subject: (t) => `«${t}» está completo`,
    body: (t, n) =>
      `Todos han terminado «${t}».` + (n === 0 ? '' : n === 1 ? ' Se adjunta el documento firmado.' : ' Se adjuntan los documentos firmados.'),
    again: 'Puede volver a descargarlo en cualquier momento desde este enlace:',
    button: 'Abrir el documento',
  },
  rejected: {
    subject: (name, t) => `${name} ha rechazado «${t}»`,
    body: (name, t) => `${name} ha rechazado «${t}». El documento ya no se puede firmar.`,
  },
  cancelled: {
    subject: (t) => `«${t}» se ha anulado`,
    body: (team, t) => `${team} ha anulado «${t}». Ya no se puede firmar y usted no tiene que hacer nada más.`,
  },
  teamCompleted: {
    subject: (t) => `Todos han completado «${t}»`,
    body: (t, n) =>
      `Todos han terminado «${t}».` + (n === 0 ? '' : n === 1 ? ' Se adjunta el documento firmado.' : ' Se adjuntan los documentos firmados.'),
    who: 'Destinatarios:',
  },
  reason: 'Motivo:',
  did: { SIGNER: 'firmó', APPROVER: 'aprobó', VIEWER: 'revisó', ASSISTANT: 'rellenó', CC: 'recibió una copia' },
  footer: (team) => `Enviado en nombre de ${team}.`,
  colon: ':',
  code: {
    subject: 'Su código de firma',
    body: (t) => `Introduzca este código en la página de firma de «${t}»:`,
    note: 'El código sirve una vez, durante 10 minutos. Si no lo ha pedido, ignore este mensaje.',
  },
  account: (p) => ({
    verify: { subject: 'Confirme su dirección de correo', heading: 'Confirme su dirección de correo', body: 'Confirme que esta dirección es suya para terminar de configurar su cuenta.', button: 'Confirmar la dirección', note: 'El enlace sirve una vez, durante 24 horas. Si no ha creado ninguna cuenta, ignore este mensaje.' },
    reset: { subject: 'Restablezca su contraseña', heading: 'Restablezca su contraseña', body: 'Alguien ha pedido restablecer la contraseña de la cuenta con esta dirección. Elija una contraseña nueva con el enlace de abajo.', button: 'Elegir una contraseña nueva', note: 'El enlace sirve una vez, durante una hora. Si no lo ha pedido, ignore este mensaje: su contraseña no cambia.' },
    signin: { subject: 'Su enlace de inicio de sesión', heading: 'Iniciar sesión', body: 'Use el enlace de abajo para iniciar sesión en su cuenta.', button: 'Iniciar sesión', note: 'El enlace sirve una vez, durante 15 minutos. Si no lo ha pedido, ignore este mensaje.' },
    invite: { subject: `Únase a ${p.teamName ?? 'un equipo'}`, heading: `Únase a ${p.teamName ?? 'un equipo'}`, body: `${p.inviter ?? 'Un miembro del equipo'} le ha invitado a unirse a ${p.teamName ?? 'su equipo'}.`, button: 'Aceptar la invitación', note: 'La invitación es válida durante 7 días.' },
  }),
}
export default es
