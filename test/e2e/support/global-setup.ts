import { rm } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { buildApp, buildParent } from './build.js'

declare module 'vitest' {
  export interface ProvidedContext {
    appDist: string
    parentDir: string
  }
}

/** Builds the app and the parent page once for every test file. */
export default async function setup(project: TestProject) {
  const [appDist, parentDir] = await Promise.all([buildApp(), buildParent()])
  project.provide('appDist', appDist)
  project.provide('parentDir', parentDir)
  return async () => {
    await rm(appDist, { recursive: true, force: true })
    await rm(parentDir, { recursive: true, force: true })
  }
}
