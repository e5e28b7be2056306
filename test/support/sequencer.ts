import { statSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Spreads each project's files evenly over the run, longest first within a project.
 *
 * Vitest's own order queues the projects one after another, so every end-to-end file (each with
 * its own host and Chromium) would start together and the host files would follow. Interleaved,
 * the workers hold a mix of browser-bound and database-bound files all the way through, and the
 * run ends when the work does rather than when the last long file of one kind does.
 *
 * "Longest" is the last run's duration where Vitest has it cached, otherwise the file's size.
 */
export default class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cost = (spec: TestSpecification) => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`
      return this.ctx.cache.getFileTestResults(key)?.duration ?? statSync(spec.moduleId).size
    }
    const byProject = new Map<string, TestSpecification[]>()
    for (const spec of files) byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec])
    const placed: { spec: TestSpecification; at: number }[] = []
    for (const specs of byProject.values()) {
      specs.sort((a, b) => cost(b) - cost(a))
      // File k of n sits at (k + 0.5) / n of the run, whatever the project's size.
      specs.forEach((spec, k) => placed.push({ spec, at: (k + 0.5) / specs.length }))
    }
    return placed.sort((a, b) => a.at - b.at).map((p) => p.spec)
  }
}
