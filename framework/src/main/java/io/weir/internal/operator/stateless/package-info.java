/**
 * The stateless operators: the processors behind {@code filter}, {@code map}, {@code flatMap},
 * {@code peek}, {@code branch} and their value-only forms, which keep nothing between records.
 * May use the task's contracts below it.
 */
package io.weir.internal.operator.stateless;
