package wsjava.conformance;

/** Ends a case early with a grade below OK and what was seen. */
final class GradeException extends Exception {

    private static final long serialVersionUID = 1L;

    final Grade grade;

    GradeException(Grade grade, String detail) {
        super(detail);
        this.grade = grade;
    }
}
