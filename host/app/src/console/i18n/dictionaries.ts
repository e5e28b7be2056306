/**
 * The console's words in every language the service speaks. Each area of the console (shell,
 * account, team, documents) keeps one file per language; English defines the keys and every other
 * language is typed against it, so a missing, extra or misspelt key is a type error.
 */
import type { Language } from '../../../../shared/languages.js'
import accountDe from './account/de.js'
import accountEn from './account/en.js'
import accountEs from './account/es.js'
import accountFr from './account/fr.js'
import accountIt from './account/it.js'
import accountNl from './account/nl.js'
import accountPl from './account/pl.js'
import accountPtBR from './account/pt-BR.js'
import documentsDe from './documents/de.js'
import documentsEn from './documents/en.js'
import documentsEs from './documents/es.js'
import documentsFr from './documents/fr.js'
import documentsIt from './documents/it.js'
import documentsNl from './documents/nl.js'
import documentsPl from './documents/pl.js'
import documentsPtBR from './documents/pt-BR.js'
import shellDe from './shell/de.js'
import shellEn from './shell/en.js'
import shellEs from './shell/es.js'
import shellFr from './shell/fr.js'
import shellIt from './shell/it.js'
import shellNl from './shell/nl.js'
import shellPl from './shell/pl.js'
import shellPtBR from './shell/pt-BR.js'
import teamDe from './team/de.js'
import teamEn from './team/en.js'
import teamEs from './team/es.js'
import teamFr from './team/fr.js'
import teamIt from './team/it.js'
import teamNl from './team/nl.js'
import teamPl from './team/pl.js'
import teamPtBR from './team/pt-BR.js'

export const CONSOLE_AREAS = {
  shell: { en: shellEn, de: shellDe, fr: shellFr, es: shellEs, it: shellIt, nl: shellNl, 'pt-BR': shellPtBR, pl: shellPl },
  account: { en: accountEn, de: accountDe, fr: accountFr, es: accountEs, it: accountIt, nl: accountNl, 'pt-BR': accountPtBR, pl: accountPl },
  team: { en: teamEn, de: teamDe, fr: teamFr, es: teamEs, it: teamIt, nl: teamNl, 'pt-BR': teamPtBR, pl: teamPl },
  documents: { en: documentsEn, de: documentsDe, fr: documentsFr, es: documentsEs, it: documentsIt, nl: documentsNl, 'pt-BR': documentsPtBR, pl: documentsPl },
} satisfies Record<string, Record<Language, Record<string, string>>>

const en = { ...shellEn, ...accountEn, ...teamEn, ...documentsEn }
export type ConsoleKey = keyof typeof en

export const CONSOLE_DICTIONARIES: Record<Language, Record<ConsoleKey, string>> = {
  en,
  de: { ...shellDe, ...accountDe, ...teamDe, ...documentsDe },
  fr: { ...shellFr, ...accountFr, ...teamFr, ...documentsFr },
  es: { ...shellEs, ...accountEs, ...teamEs, ...documentsEs },
  it: { ...shellIt, ...accountIt, ...teamIt, ...documentsIt },
  nl: { ...shellNl, ...accountNl, ...teamNl, ...documentsNl },
  'pt-BR': { ...shellPtBR, ...accountPtBR, ...teamPtBR, ...documentsPtBR },
  pl: { ...shellPl, ...accountPl, ...teamPl, ...documentsPl },
}
