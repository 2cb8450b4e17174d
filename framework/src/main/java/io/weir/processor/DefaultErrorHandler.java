package io.weir.processor;

/** The handlers {@code error.mode} names; named so that logs say which one decided. */
enum DefaultErrorHandler implements ErrorHandler {
    DEAD_LETTER(ErrorResponse.deadLetter()),
    FAIL(ErrorResponse.fail());

    private final ErrorResponse response;

    DefaultErrorHandler(ErrorResponse response) {
        this.response = response;
    }

    @Override
    public ErrorResponse handle(FailedRecord failed) {
        return response;
    }

    @Override
    public String toString() {
        return "error.mode=" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
