/** The embedding application of the end-to-end tests, on this library's components. */
import * as Embed from 'envelope-embed'
import { recordingPage } from './record.js'

recordingPage(Embed)
