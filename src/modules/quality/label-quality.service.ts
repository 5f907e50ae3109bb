// GET /projects/:id/quality and GET /quality/option-sets: what a buyer needs to decide whether to trust a
// batch's labels (src/consensus/quality-report.ts says what each figure means).
import { qualityReport, type QualityReport } from '../../consensus/quality-report.ts';
import type { Database } from '../../repositories.ts';

export class LabelQualityService {
  constructor(private readonly db: Database) {}

  /** A project's report; PROJECT_NOT_FOUND for another buyer's project or none. */
  async project(buyerId: string, projectId: string): Promise<QualityReport> {
    await this.db.repos.projects.get(buyerId, projectId);
    return qualityReport(await this.db.repos.labelQuality.projectFigures(projectId));
  }

  /** One report per option set of the buyer's tasks without a project (the largest 50). */
  async optionSets(buyerId: string): Promise<Array<QualityReport & { options: string[] }>> {
    const sets = await this.db.repos.labelQuality.optionSetFigures(buyerId);
    return sets.map(({ options, figures }) => ({ options, ...qualityReport(figures) }));
  }
}
