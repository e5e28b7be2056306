/**
 * A customer's page on the deployed service's own embed library, `@documenso/embed-react`, used
 * unmodified (callbacks it does not know, such as onReady, are simply extra props to it).
 */
import * as Deployed from '@documenso/embed-react'
import { recordingPage } from './record.js'

recordingPage(Deployed)
