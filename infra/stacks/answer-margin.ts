/**
 * Time a turn needs after its deadline to save and answer: the function must outlive the turn by
 * this much, and API Gateway must wait for the function. Its own module, free of aws-cdk-lib:
 * `npm start` reads it too, and importing aws-cdk-lib would cost its process 0.4 s of CPU at
 * start and 12 MB of live heap that every major garbage collection then marks.
 */
export const ANSWER_MARGIN_MS = 3_000;
