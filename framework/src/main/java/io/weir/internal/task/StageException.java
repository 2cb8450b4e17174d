package io.weir.internal.task;

/** Marks a failure of a known stage (deserialization, production); anything else is processing. */
final class StageException extends RuntimeException {

    final Stage stage;

    StageException(Stage stage, String message, Throwable cause) {
        super(message, cause);
        this.stage = stage;
    }

    static Stage stageOf(Throwable t) {
        return t instanceof StageException s ? s.stage : Stage.PROCESS;
    }

    /** The error to report: the cause of a stage wrapper, else the error itself. */
    static Throwable rootOf(Throwable t) {
        return t instanceof StageException s && s.getCause() != null ? s.getCause() : t;
    }
}
