import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Hebrew. */
const he: Record<keyof typeof en, string> = {
  'shell.title': 'מסוף',
  'shell.skip': 'דלג לתוכן',
  'shell.nav': 'מסוף',
  'shell.documents': 'מסמכים',
  'shell.templates': 'תבניות',
  'shell.settings': 'הגדרות הצוות',
  'shell.account': 'חשבון',
  'shell.signOut': 'התנתקות',
  'shell.team': 'צוות',
  'shell.language': 'שפה',
  'shell.loading': 'טוען…',
  'shell.cancel': 'ביטול',
  'shell.notFound': 'דף זה אינו קיים.',
  'shell.noTeam': 'אינכם חברים עדיין באף צוות. בקשו הזמנה ממנהל צוות.',
  'shell.error': 'משהו השתבש: {message}',
  'signIn.title': 'כניסה',
  'signIn.email': 'כתובת דוא״ל',
  'signIn.password': 'סיסמה',
  'signIn.submit': 'כניסה',
  'signIn.working': 'נכנס…',
}
export default he
