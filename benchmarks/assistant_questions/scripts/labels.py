width = 40
unit = "cm"
label = "width: " + width
