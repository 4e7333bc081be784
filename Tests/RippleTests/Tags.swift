import Testing

extension Tag {
    @Tag static var stress: Self
}
