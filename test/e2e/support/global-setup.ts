import { rm } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { buildApp, builtApp, buildParent } from './build.js'

declare module 'vitest' {
  export interface ProvidedContext {
    appDist: string
    parentDir: string
  }
}

/** The app (host/app/dist when it is up to date, else built) and the parent page, once for every test file. */
export default async function setup(project: TestProject) {
  const built = await builtApp()
  const [appDist, parentDir] = await Promise.all([built ?? buildApp(), buildParent()])
  project.provide('appDist', appDist)
  project.provide('parentDir', parentDir)
  return async () => {
    // host/app/dist is the build's, not ours to remove.
    if (!built) await rm(appDist, { recursive: true, force: true })
    await rm(parentDir, { recursive: true, force: true })
  }
}
