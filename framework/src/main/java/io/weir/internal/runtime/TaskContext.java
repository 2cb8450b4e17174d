package io.weir.internal.runtime;

import io.weir.processor.TaskId;

/** What the nodes of one task share. */
record TaskContext(TaskId id, String applicationId, Punctuations punctuations) {
}
