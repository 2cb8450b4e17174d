package io.weir.errors;

/**
 * Processing a record failed and the application is set to stop on such failures
 * ({@code error.mode=fail}), or the failure cannot be dead-lettered. The message names the task,
 * the record's topic, partition and offset, and the processing stage; the cause is what the
 * application's code or serde threw. With the default {@code error.mode=dead_letter} such records
 * go to the dead-letter topic instead and processing goes on.
 */
public class ProcessingException extends WeirException {

    private static final long serialVersionUID = 1L;

    public ProcessingException(String message, Throwable cause) {
        super(message, cause);
    }
}
