print("commons")
