import { Model } from "objection";

/** Column names are mapped to snake_case by the knex instance (knexSnakeCaseMappers). */
export class BaseModel extends Model {
  static override useLimitInFirst = true;
}
