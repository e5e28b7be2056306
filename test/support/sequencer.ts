import { readFileSync, statSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Orders the run project by project, the largest project first, and within a project the longest
 * file first, so the run ends on short files.
 *
 * The Node projects run without isolation: a worker's process goes on to the next file only when
 * that file is of the same project, and otherwise starts anew (modules loaded again, its worker
 * fixtures set up again). Files of one project in a row keep each worker's process, its modules,
 * its hosts and its Chromium for the whole stretch.
 *
 * "Longest" is the last run's duration where Vitest has it cached; else the duration recorded in
 * file-times.json (`npm run test:times -- --record` after a whole run), so a clean clone, which has
 * no cache, still starts its longest files first instead of ending on them; else the file's size.
 */
const recorded: Record<string, number> = JSON.parse(readFileSync(new URL('./file-times.json', import.meta.url), 'utf8'))

export default class ProjectSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cost = (spec: TestSpecification) => {
      const file = relative(this.ctx.config.root, spec.moduleId)
      return this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration ?? recorded[file] ?? statSync(spec.moduleId).size
    }
    const byProject = new Map<string, TestSpecification[]>()
    for (const spec of files) byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec])
    const total = (specs: TestSpecification[]) => specs.reduce((sum, spec) => sum + cost(spec), 0)
    return [...byProject.values()]
      .map((specs) => specs.sort((a, b) => cost(b) - cost(a)))
      .sort((a, b) => total(b) - total(a))
      .flat()
  }
}
